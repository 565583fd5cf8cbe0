import type { Database } from '../../db/database';
import type { Clock } from '../../repositories/clock';
import { latestRobotTime } from '../../robot/worker/drizzle-platform-journal';
import type { RobotClockSpec } from '../../robot/protocol/robot-protocol';

/**
 * The robot's time in epoch ms: the app's clock, sped up by MARKET_SPEED (tests, demos), from
 * MARKET_START when a test pins it (issue 41). A sped-up or pinned clock starts after the latest
 * time the robot recorded, so that a restart never replays decision times (client order ids are
 * made of them). `spec` tells the robot's thread the same rule: the wall clock from the time now,
 * or (`driven`, tests without timers) this thread's time with each request.
 */
export async function robotClock(
  clock: Clock,
  market: { speed: number; start: number | undefined },
  db: Database['db'],
  driven: boolean,
): Promise<{ now: () => number; spec: () => RobotClockSpec }> {
  const { speed, start } = market;
  let now = () => clock.now().getTime();
  if (speed !== 1 || start !== undefined) {
    const wallOrigin = clock.now().getTime();
    const origin = Math.max(start ?? wallOrigin, (await latestRobotTime(db)) + 1);
    now = () => origin + (clock.now().getTime() - wallOrigin) * speed;
  }
  const spec = (): RobotClockSpec =>
    driven
      ? { kind: 'driven', now: now() }
      : { kind: 'wall', origin: now(), wallOrigin: Date.now(), speed };
  return { now, spec };
}
