import type { Clock } from '../repositories/clock';
import { normalizePromocode, type PromoCodesStore } from '../repositories/promo-codes.repository';
import type { Transact } from '../repositories/transaction';
import type { UserRow, UsersStore } from '../repositories/users.repository';
import type { PromoBenefits } from './promo-benefits';
import { PromoCodeInvalid } from './promo-codes.errors';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export class PromoCodesService {
  constructor(
    private readonly promoCodes: PromoCodesStore,
    private readonly users: UsersStore,
    private readonly transact: Transact,
    private readonly clock: Clock,
    /** What a code gives (the free month); without one, codes are only recorded. */
    private readonly benefits?: PromoBenefits,
  ) {}

  async validate(code: string) {
    const row = await this.promoCodes.findUsable(code, this.clock.now());
    return { valid: Boolean(row), benefit: row?.benefit ?? null };
  }

  /**
   * Applies a code to a signed-in user, with its benefit (a free month starts at once).
   * Applying the code they already have is a no-op, also when the same request arrives several
   * times at once: the check and the redemption happen in one transaction, with the user's row
   * locked, so a code loses at most one use per user.
   */
  async applyToUser(user: UserRow, code: string) {
    const normalized = normalizePromocode(code);
    const now = this.clock.now();
    const applied = await this.transact(async (tx) => {
      if ((await this.users.lockedPromocode(user.id, tx)) === normalized) {
        const current = await this.promoCodes.findUsable(normalized, now, tx);
        if (!current) throw new PromoCodeInvalid();
        return { promocode: normalized, benefit: current.benefit, again: true as const };
      }
      const redeemed = await this.promoCodes.redeem(normalized, now, tx);
      if (!redeemed) throw new PromoCodeInvalid();
      await this.users.setPromocode(user.id, normalized, now, tx);
      await this.promoCodes.recordUse(tx, {
        code: normalized,
        userId: user.id,
        benefit: redeemed.benefit,
        source: 'profile',
        usedAt: now,
      });
      const granted = await this.benefits?.grant(tx, user.id, redeemed.benefit);
      return {
        promocode: normalized,
        benefit: redeemed.benefit,
        trialEndsAt: iso(granted?.trialEndsAt ?? null),
      };
    });
    // Read after the transaction: on PGlite's one connection a read beside it would wait for it.
    if ('again' in applied) {
      const trialEndsAt = (await this.benefits?.trialEnd(user.id)) ?? null;
      return {
        promocode: applied.promocode,
        benefit: applied.benefit,
        trialEndsAt: iso(trialEndsAt),
      };
    }
    // Committed now: a cached copy of the user read meanwhile is dropped too.
    await this.users.userChanged(user.id);
    await this.benefits?.granted(user.id);
    return applied;
  }
}
