import type { Clock } from '../repositories/clock';
import type { TradingPlatformLinksStore } from '../repositories/trading-platform-links.repository';
import type { SettingsRow, UserRow, UsersStore } from '../repositories/users.repository';
import { NotLinked } from './linking.errors';

export interface UnlinkingDependencies {
  users: UsersStore;
  links: TradingPlatformLinksStore;
  clock: Clock;
  /** The password typed to confirm; raises the field's 422 when wrong. */
  verifyPassword: (userId: string, password: string, field: string) => Promise<void>;
  /**
   * The kill switch (decision 063): the robot off and every open operation closed at the
   * market; raises RobotUnavailable when no robot can do it now. Returns how many closed.
   */
  closeEverything: (user: UserRow) => Promise<number>;
  /** Operations open now on the account (0 without a robot account). */
  openOperations: (userId: string) => Promise<number>;
  /** Committed: the session cache drops the user and the robot sees the robot switched off. */
  onUnlinked: (row: SettingsRow) => Promise<void>;
}

export interface UnlinkResult {
  linked: false;
  /** Operations the robot closed on request. */
  closed: number;
  /** Operations left open at the platform or broker, for the user to manage there. */
  leftOpen: number;
}

/**
 * Ending a link, for every platform (terms §7; decision 091). With the password as a destructive
 * step asks: the robot stops for the account, its open operations are closed on request or left
 * to the user, and the link's row with its sealed credentials or tokens is erased, keeping a
 * record of the unlinking. Spotware documents no revocation call: a cTrader grant is dropped on
 * our side (the tokens erased) and the user is told to remove the application at cTrader ID.
 */
export class UnlinkingService {
  constructor(private readonly deps: UnlinkingDependencies) {}

  async unlink(
    user: UserRow,
    input: { password: string; closeOperations: boolean },
  ): Promise<UnlinkResult> {
    await this.deps.verifyPassword(user.id, input.password, 'password');
    const settings = await this.deps.users.findSettings(user.id);
    if (!settings?.linked) throw new NotLinked();
    // The kill switch first, when asked: a failure leaves the link as it was (robot off at worst).
    const closed = input.closeOperations ? await this.deps.closeEverything(user) : 0;
    const leftOpen = await this.deps.openOperations(user.id);
    const result = await this.deps.links.unlink(
      user.id,
      { closedPositions: input.closeOperations, openPositions: closed + leftOpen },
      this.deps.clock.now(),
    );
    if (!result) throw new NotLinked();
    await this.deps.onUnlinked(result.settings);
    return { linked: false, closed, leftOpen };
  }
}
