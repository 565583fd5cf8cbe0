import {
  billingDurationsMs,
  type BillingOverview,
  type CheckoutSession,
  type CheckoutStatus,
  type Language,
  type PlanId,
} from '@tradebot/contract';
import { DuplicateKey } from '../repositories/errors';
import type { Tx } from '../repositories/billing.repository';
import type { UserRow } from '../repositories/users.repository';
import { BillingCheckout } from './billing-checkout';
import { BillingClock } from './billing-clock';
import { BillingProviderSync, type BillingServiceOptions } from './billing-provider-sync';
import { BillingRefunds } from './billing-refunds';
import { FreeMonthUsed } from './billing.errors';
import type { PromoBenefits } from './promo-benefits';

export type {
  BillingServiceOptions,
  ClockedPaymentProvider,
  GiftPlatform,
  RefundReason,
} from './billing-provider-sync';

/**
 * Plans, checkout, subscriptions, refunds, the free month and the yearly plan's gift
 * (issue 10; docs/decisions/047-payments.md, 048-guarantee-and-refunds.md), as one service for
 * the routes and the rest of the server. Each use case lives in its part: checkout
 * (`billing-checkout.ts`), provider sync with its effects and the gift
 * (`billing-provider-sync.ts`), refunds (`billing-refunds.ts`) and the billing clock
 * (`billing-clock.ts`); the free month, a promo code's benefit, is here.
 */
export class BillingService implements PromoBenefits {
  private readonly providerSync: BillingProviderSync;
  private readonly checkout: BillingCheckout;
  private readonly refunds: BillingRefunds;
  private readonly clock: BillingClock;

  constructor(private readonly options: BillingServiceOptions) {
    this.providerSync = new BillingProviderSync(options);
    this.checkout = new BillingCheckout(this.providerSync, options);
    this.refunds = new BillingRefunds(this.providerSync, this.checkout);
    this.clock = new BillingClock(this.providerSync, options);
  }

  private get repository() {
    return this.options.repository;
  }

  // ---- What the user sees (checkout) ----

  overview(user: UserRow): Promise<BillingOverview> {
    return this.checkout.overview(user);
  }

  startCheckout(user: UserRow, plan: PlanId, language: Language): Promise<CheckoutSession> {
    return this.checkout.startCheckout(user, plan, language);
  }

  checkoutStatus(user: UserRow, sessionId: string): Promise<CheckoutStatus> {
    return this.checkout.checkoutStatus(user, sessionId);
  }

  setCancelAtPeriodEnd(user: UserRow, cancel: boolean): Promise<BillingOverview> {
    return this.checkout.setCancelAtPeriodEnd(user, cancel);
  }

  endSubscriptionsNow(userId: string): Promise<void> {
    return this.checkout.endSubscriptionsNow(userId);
  }

  portal(user: UserRow, language: Language): Promise<{ url: string }> {
    return this.checkout.portal(user, language);
  }

  // ---- Refunds ----

  refund(user: UserRow): Promise<BillingOverview> {
    return this.refunds.refund(user);
  }

  guaranteeEligibility(userId: string): Promise<{ eligible: boolean; until: Date | null }> {
    return this.refunds.guaranteeEligibility(userId);
  }

  honourGuarantee(userId: string): Promise<void> {
    return this.refunds.honourGuarantee(userId);
  }

  // ---- The free month ----

  /**
   * A promo code's free month: 30 days of access without a card, in the caller's transaction
   * (registration, update-promocode). Once per user, and not after a paid subscription.
   * The caller calls `accessChanged` once it commits.
   */
  async startFreeMonth(tx: Tx, userId: string): Promise<Date> {
    const start = this.providerSync.now();
    const end = new Date(start.getTime() + billingDurationsMs.freeMonth);
    if (await this.repository.hasAnySubscription(tx, userId)) throw new FreeMonthUsed();
    try {
      await this.repository.insertFreeMonth(tx, userId, start, end);
    } catch (error) {
      if (error instanceof DuplicateKey) throw new FreeMonthUsed();
      throw error;
    }
    await this.repository.syncAuthorized(userId, start, tx);
    return end;
  }

  /** PromoBenefits: the free month, in the redeeming transaction. */
  async grant(tx: Tx, userId: string, _benefit: 'free_month'): Promise<{ trialEndsAt: Date }> {
    return { trialEndsAt: await this.startFreeMonth(tx, userId) };
  }

  /** PromoBenefits: once the redeeming transaction committed. */
  async granted(userId: string): Promise<void> {
    await this.providerSync.accessChanged(userId);
  }

  /** PromoBenefits: the end of the user's free month, if they have had one. */
  async trialEnd(userId: string): Promise<Date | null> {
    const rows = await this.repository.subscriptionsOf(userId);
    return rows.find((row) => row.provider === 'promo')?.currentPeriodEnd ?? null;
  }

  // ---- Provider sync ----

  /** After a commit that changed `authorized`: caches drop it and the robot follows. */
  accessChanged(userId: string): Promise<void> {
    return this.providerSync.accessChanged(userId);
  }

  handleWebhook(
    providerName: string,
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<void> {
    return this.providerSync.handleWebhook(providerName, rawBody, headers);
  }

  grantPendingGift(userId: string): Promise<boolean> {
    return this.providerSync.grantPendingGift(userId);
  }

  grantPendingGifts(): Promise<void> {
    return this.providerSync.grantPendingGifts();
  }

  // ---- The clock ----

  runDue(): Promise<void> {
    return this.clock.runDue();
  }
}
