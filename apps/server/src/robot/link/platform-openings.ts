import type { JobClaims } from '../../repositories/job-claims.repository';
import type { PlatformUsersRepository } from '../../repositories/platform-users.repository';
import type { UsersStore } from '../../repositories/users.repository';
import { effectiveRobotSettings } from '../../domain/robot-settings';
import type { RobotRuntime } from './robot-runtime';

/** At most this many openings per pass. */
const openingsPerPass = 100;

/** The job claim every opening at the built-in platform takes, whichever path opens it. */
export const openingJob = 'robot.open';

/**
 * Opens an account under the opening's claim (decision 110): with account leases, the process
 * serving a link and another process's openings pass may both find it to open; one does it,
 * the other does nothing. Without claims (one process) it opens. True when it opened here.
 */
export async function openOnce(
  claims: Pick<JobClaims, 'once'> | undefined,
  accountId: string,
  open: () => Promise<void>,
): Promise<boolean> {
  if (!claims) {
    await open();
    return true;
  }
  return (await claims.once(openingJob, accountId, open)) !== undefined;
}

/**
 * Opens, at the built-in platform, the accounts registered but not opened yet: those a process
 * without the robot registered (ROBOT_ENABLED=false), or whose opening a crash interrupted.
 * Each gets its recorded starting balance and the user's settings, so that a robot switched on
 * trades. Runs in the process that runs the robot (docs/decisions/049). Returns how many it opened.
 */
export async function openPendingPlatformAccounts(
  robot: RobotRuntime,
  logins: PlatformUsersRepository,
  users: UsersStore,
  /** With account leases every process runs this pass: each opening is one process's (092). */
  claims?: JobClaims,
): Promise<number> {
  let opened = 0;
  for (const login of await logins.unopened(openingsPerPass)) {
    if (robot.hasAccount(login.accountId)) continue;
    const open = async () => {
      await robot.openAccount(login.accountId, login.startingBalanceCents);
      const settings = await users.findSettings(login.accountId);
      if (settings) await robot.applySettings(login.accountId, effectiveRobotSettings(settings));
    };
    if (await openOnce(claims, login.accountId, open)) opened++;
  }
  return opened;
}
