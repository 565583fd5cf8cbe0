import type { DrizzleExecutionStore } from './drizzle-execution-store';
import type { DrizzlePlatformJournal } from './drizzle-platform-journal';

/**
 * Tests only (ROBOT_TEST_ONLY_CRASH_AT, decision 092 amended): the points of an order's life
 * where a robot process may be made to kill itself with SIGKILL, so that the next owner's
 * reconciliation is proven exactly there (issue 21, proofs 2 and 3). Refused unless
 * NODE_ENV=test, in the configuration and again here.
 */
export const testOnlyCrashPoints = [
  /** An order intent is stored, not yet sent to the platform (proof 3). */
  'intent-stored',
  /** The platform has recorded a fill, the robot has not stored the operation (proof 2). */
  'platform-accepted',
] as const;
export type TestOnlyCrashPoint = (typeof testOnlyCrashPoints)[number];

/** SIGKILL at the point named, the first time it is reached (tests only). */
export function crashAt(
  point: TestOnlyCrashPoint,
  journal: DrizzlePlatformJournal,
  store: DrizzleExecutionStore,
): void {
  if (process.env.NODE_ENV !== 'test') {
    throw new Error('a crash point is for tests only: it is refused unless NODE_ENV=test');
  }
  const die = () => {
    process.kill(process.pid, 'SIGKILL');
  };
  if (point === 'intent-stored') {
    const save = store.saveIntents.bind(store);
    store.saveIntents = async (intents) => {
      await save(intents);
      if (intents.length > 0) die();
    };
    return;
  }
  const record = journal.record.bind(journal);
  journal.record = async (entries) => {
    await record(entries);
    const filled = entries.some(
      (entry) => entry.kind === 'order-settled' && entry.outcome.kind === 'filled',
    );
    if (filled) die();
  };
}
