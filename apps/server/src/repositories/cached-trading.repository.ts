import type { Db } from '../db/database';
import type { SessionCache } from './session-cache';
import { TradingRepository, type AccountLink } from './trading.repository';

/**
 * The trading repository with the account link read through the session cache (decision 045):
 * every get-all-data reads it, and every write of a link (linking, unlinking, deleting the
 * account) ends in the user's `userChanged`, which drops it here and in the other processes.
 */
export class CachedTradingRepository extends TradingRepository {
  constructor(
    db: Db,
    private readonly cache: SessionCache,
  ) {
    super(db);
  }

  override accountLink(userId: string): Promise<AccountLink> {
    return this.cache.accountLink(userId, () => super.accountLink(userId));
  }
}
