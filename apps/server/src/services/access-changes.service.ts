import type { SettingsRow } from '../repositories/users.repository';

/** What the service needs from the users' store. */
export interface AccessUsersPort {
  userChanged(userId: string): Promise<void>;
  findSettings(userId: string): Promise<SettingsRow | undefined>;
}

/** What happens when a user's access, link or broker grant changes: the order of the steps and
 * who is told live here, so app.ts only composes (decision 104). */
export interface AccessChangesPorts {
  users: AccessUsersPort;
  /** Ends the access whose period is over; returns the users it concerned. */
  endLapsedAccess(now: Date): Promise<string[]>;
  /**
   * The linked cTrader accounts changed: the robots trade (or stop trading) them as they are now,
   * wherever the account is held (AccountCommands.grantsChanged, decision 105).
   */
  grantsChanged(): Promise<void>;
  applyStoredSettings(userId: string): Promise<void>;
  tellAccessEnded(userId: string): Promise<void>;
}

/** Access that ended while the server was down is taken away (and the users' cached rows
 * dropped) before the robot loads its accounts; returns the users concerned, to tell later
 * with tellIfAccessStoppedRobot once the notification outbox exists. */
export async function endLapsedWhileDown(
  ports: Pick<AccessChangesPorts, 'users' | 'endLapsedAccess'>,
  now: Date,
): Promise<string[]> {
  const lapsed = await ports.endLapsedAccess(now);
  for (const userId of lapsed) await ports.users.userChanged(userId);
  return lapsed;
}

export class AccessChangesService {
  constructor(private readonly ports: AccessChangesPorts) {}

  /** endLapsedWhileDown with this service's ports. */
  endLapsedWhileDown(now: Date): Promise<string[]> {
    return endLapsedWhileDown(this.ports, now);
  }

  /** A robot the user had switched on, on a linked account, stops when access ends: say so
   * (the outbox keys it by day, so telling twice records it once). */
  async tellIfAccessStoppedRobot(userId: string): Promise<void> {
    const settings = await this.ports.users.findSettings(userId);
    if (settings?.linked && settings.botOn && !settings.authorized) {
      await this.ports.tellAccessEnded(userId);
    }
  }

  /** Billing changed the user's access: apply the stored settings, then tell if it stopped. */
  async accessChanged(userId: string): Promise<void> {
    await this.ports.applyStoredSettings(userId);
    await this.tellIfAccessStoppedRobot(userId);
  }

  /** A cTrader account was linked or unlinked: the robot starts (or stops) trading the account
   * at the broker before the user's settings are applied. */
  async linkChanged(userId: string): Promise<void> {
    await this.ports.users.userChanged(userId);
    await this.ports.grantsChanged();
    await this.ports.applyStoredSettings(userId);
  }

  /** The broker grant was refreshed: the robot picks up the new token. */
  async tokenRefreshed(): Promise<void> {
    await this.ports.grantsChanged();
  }
}
