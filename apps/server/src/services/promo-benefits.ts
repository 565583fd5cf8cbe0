import type { Tx } from '../repositories/transaction';
import type { PromoCodeRow } from '../repositories/promo-codes.repository';

/**
 * What a redeemed promo code gives (billing's free month), applied in the transaction that
 * redeems the code, so that a refused benefit takes no use of the code.
 */
export interface PromoBenefits {
  grant(tx: Tx, userId: string, benefit: PromoCodeRow['benefit']): Promise<{ trialEndsAt: Date }>;
  /** After the redeeming transaction committed. */
  granted(userId: string): Promise<void>;
  /** The end of the user's free month, if they have had one. */
  trialEnd(userId: string): Promise<Date | null>;
}
