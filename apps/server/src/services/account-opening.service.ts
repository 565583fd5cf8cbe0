import type { JobClaims } from '../repositories/job-claims.repository';
import { openOnce } from '../robot/link/platform-openings';
import type { RobotRuntime } from '../robot/link/robot-runtime';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { HouseAccount } from '../repositories/track-record.repository';
import type { SettingsRow } from '../repositories/users.repository';
import { effectiveRobotSettings } from '../domain/robot-settings';

/** Where the robot's own account is written once (`TrackRecordRepository`). */
export interface HouseAccountStore {
  /** Creates the account unless it exists; true when it was created now. */
  ensureHouseAccount(house: HouseAccount, passwordHash: () => Promise<string>): Promise<boolean>;
}

export interface AccountOpeningDeps {
  /** The robot running in this process: accounts at the built-in platform open there. */
  robot: Pick<RobotRuntime, 'hasAccount' | 'openAccount' | 'applySettings'>;
  /** The yearly plan's gift, owed since the payment (BillingService). */
  gifts: { grantPendingGift(userId: string): Promise<boolean> };
  /** The robot's own account, the public track record's (decision 060). */
  house: { account: HouseAccount; store: HouseAccountStore };
  hasher: Pick<PasswordHasher, 'hash'>;
  /** A random secret: the house account's password, kept nowhere. */
  newSecret: () => string;
  /** Caches drop a user whose row was written. */
  userChanged: (userId: string) => Promise<void>;
  /** Applies the stored settings of an account to the robot (TradingService). */
  applyStoredSettings: (userId: string) => Promise<void>;
  /**
   * With account leases, the opening's claim, the one the openings pass of every process takes
   * (decision 110): an account opened here is not opened again by another process.
   */
  claims?: Pick<JobClaims, 'once'>;
  /** A step that failed without failing its caller, with the log line that says which. */
  onError: (error: unknown, message: string) => void;
}

/**
 * What follows an account's opening at the built-in platform, in a process that runs the robot:
 * the first deposit and the yearly plan's gift owed since the payment (decision 048), the
 * robot's settings once the user has linked (decision 047: the link changes who trades), and
 * the robot's own account for the public track record (decision 060).
 */
export class AccountOpeningService {
  constructor(private readonly deps: AccountOpeningDeps) {}

  /**
   * Opens the account with its first deposit; then the gift owed lands on it. A gift that
   * fails is logged and left owed (the billing clock grants it later): the account is open.
   * When another process holds the opening's claim, it opens the account and nothing is done
   * here (a gift owed waits for the billing clock).
   */
  async open(accountId: string, depositCents: number): Promise<void> {
    const opened = await openOnce(this.deps.claims, accountId, () =>
      this.deps.robot.openAccount(accountId, depositCents),
    );
    if (!opened) return;
    await this.deps.gifts.grantPendingGift(accountId).catch((error: unknown) => {
      this.deps.onError(error, 'billing: granting the broker gift failed');
    });
  }

  /** After linking (or logging in to the platform): the robot trades by the new settings. */
  async linked(row: SettingsRow): Promise<void> {
    if (this.deps.robot.hasAccount(row.userId)) {
      await this.deps.robot.applySettings(row.userId, effectiveRobotSettings(row));
    }
  }

  /**
   * Writes the robot's own account once (it then opens with the accounts pending at the
   * platform). Its password is random and kept nowhere: nobody logs in as it. A failure is
   * logged: the server starts without the track record's account.
   */
  async writeTrackRecordAccount(): Promise<void> {
    const { account, store } = this.deps.house;
    try {
      const created = await store.ensureHouseAccount(account, () =>
        this.deps.hasher.hash(this.deps.newSecret()),
      );
      if (created) await this.deps.userChanged(account.accountId);
    } catch (error) {
      this.deps.onError(error, 'robot: writing its own account failed');
    }
  }

  /** Once the robot's own account is open: its stored settings (robot on) apply. */
  async applyTrackRecordSettings(): Promise<void> {
    await this.deps
      .applyStoredSettings(this.deps.house.account.accountId)
      .catch((error: unknown) => {
        this.deps.onError(error, "robot: applying its own account's settings failed");
      });
  }
}
