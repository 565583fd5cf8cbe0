import type { DrizzleExecutionStore } from './drizzle-execution-store';
import type { DrizzlePlatformJournal } from './drizzle-platform-journal';
import type { TestOnlyCrashPoint } from '../protocol/robot-protocol';

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
