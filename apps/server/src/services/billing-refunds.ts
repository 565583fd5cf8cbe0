import type { BillingOverview } from '@tradebot/contract';
import type { PaymentRow } from '../repositories/billing.repository';
import type { UserRow } from '../repositories/users.repository';
import { guaranteeWindow, selfRefundWindow } from './billing-rules';
import { GuaranteeNotEligible, RefundNotEligible } from './billing.errors';
import { paymentFacts, type BillingCheckout } from './billing-checkout';
import type { BillingProviderSync, RefundReason } from './billing-provider-sync';

/**
 * Refunds (decision 048): the user's own within 7 days of the first payment (spec §1), and the
 * 30-day guarantee that support honours. Either refunds the first payment in full at the
 * provider and ends the subscription; access follows from the provider's state.
 */
export class BillingRefunds {
  constructor(
    private readonly providerSync: BillingProviderSync,
    private readonly checkout: BillingCheckout,
  ) {}

  /** spec §1: within 7 days of the first payment, the user refunds it; access ends. */
  async refund(user: UserRow): Promise<BillingOverview> {
    const first = await this.providerSync.repository.firstPayment(user.id);
    const window = selfRefundWindow(
      first && paymentFacts(first),
      this.providerSync.now().getTime(),
    );
    if (!first || !window.eligible) throw new RefundNotEligible();
    await this.refundPayment(first, 'refund_7_days');
    return this.checkout.overview(user);
  }

  /**
   * The 30-day money guarantee (decision 048), for the support console: whether a user may
   * claim it now, and until when.
   */
  async guaranteeEligibility(userId: string): Promise<{ eligible: boolean; until: Date | null }> {
    const first = await this.providerSync.repository.firstPayment(userId);
    const window = guaranteeWindow(first && paymentFacts(first), this.providerSync.now().getTime());
    return {
      eligible: window.eligible,
      until: window.until === null ? null : new Date(window.until),
    };
  }

  /** Honours a guarantee claim: refunds the first payment in full and ends access. */
  async honourGuarantee(userId: string): Promise<void> {
    const first = await this.providerSync.repository.firstPayment(userId);
    const window = guaranteeWindow(first && paymentFacts(first), this.providerSync.now().getTime());
    if (!first || !window.eligible) throw new GuaranteeNotEligible();
    await this.refundPayment(first, 'guarantee_30_days');
  }

  private async refundPayment(payment: PaymentRow, reason: RefundReason): Promise<void> {
    const subscription = (await this.providerSync.repository.subscriptionsOf(payment.userId)).find(
      (row) => row.id === payment.subscriptionId,
    );
    const providerId = subscription?.providerSubscriptionId;
    if (!providerId) throw new Error(`payment ${payment.id} has no provider subscription`);
    await this.providerSync.bySubscription.run(providerId, async () => {
      await this.providerSync.repository.noteRefundReason(payment.id, reason);
      await this.providerSync.call('refunding a payment', async () => {
        await this.providerSync.provider.refund(payment.refundRef);
        await this.providerSync.provider.cancelNow(providerId);
      });
      await this.providerSync.sync(providerId, payment.providerPaymentId, undefined);
    });
  }
}
