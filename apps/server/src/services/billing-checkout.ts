import {
  plans,
  type BillingOverview,
  type CheckoutSession,
  type CheckoutStatus,
  type Language,
  type PaymentView,
  type PlanId,
  type SubscriptionView,
} from '@tradebot/contract';
import type { PaymentRow, SubscriptionRow } from '../repositories/billing.repository';
import type { UserRow } from '../repositories/users.repository';
import { currentSubscription, guaranteeWindow, selfRefundWindow } from './billing-rules';
import {
  AlreadySubscribed,
  CheckoutNotFound,
  NoSubscription,
  PortalUnavailable,
} from './billing.errors';
import {
  liveStatuses,
  type BillingProviderSync,
  type BillingServiceOptions,
} from './billing-provider-sync';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * What the user sees and starts at the provider: the billing overview, the hosted checkout and
 * its status, cancelling at the period's end, the card page, and ending every subscription when
 * the account is deleted.
 */
export class BillingCheckout {
  constructor(
    private readonly providerSync: BillingProviderSync,
    private readonly options: BillingServiceOptions,
  ) {}

  private baseUrl(): string {
    return this.options.publicUrl().replace(/\/+$/, '');
  }

  async overview(user: UserRow): Promise<BillingOverview> {
    const now = this.providerSync.now();
    const [subscriptions, payments, gift, account, settings] = await Promise.all([
      this.providerSync.repository.subscriptionsOf(user.id),
      this.providerSync.repository.paymentsOf(user.id),
      this.providerSync.repository.giftOf(user.id),
      this.providerSync.repository.linkedAccount(user.id),
      this.options.users.findSettings(user.id),
    ]);
    const current = currentSubscription(subscriptions, now);
    const first = payments.at(-1);
    const refund = selfRefundWindow(first && paymentFacts(first), now.getTime());
    const guarantee = guaranteeWindow(first && paymentFacts(first), now.getTime());
    return {
      provider: this.providerSync.provider.name,
      authorized: settings?.authorized ?? false,
      subscription: current ? subscriptionView(current, now) : null,
      payments: payments.map(paymentView),
      refund: {
        eligible: refund.eligible,
        until: refund.until === null ? null : new Date(refund.until).toISOString(),
        amountCents: refund.eligible && first ? first.amountCents : null,
      },
      account,
      gift: gift
        ? { cents: gift.cents, status: gift.status === 'granting' ? 'owed' : gift.status }
        : null,
      portal: this.portalCustomer(current) !== null,
      guarantee: {
        eligible: guarantee.eligible,
        until:
          guarantee.eligible && guarantee.until !== null
            ? new Date(guarantee.until).toISOString()
            : null,
      },
      freeMonthUsed: subscriptions.some((row) => row.provider === 'promo'),
    };
  }

  /**
   * The paid subscription still running: giving access, or past due (no access, but the
   * provider still retries it, and a new card pays it: decision 058).
   */
  private livePaid(subscriptions: SubscriptionRow[], now: Date): SubscriptionRow | undefined {
    return subscriptions.find(
      (row) =>
        row.provider === this.providerSync.provider.name &&
        row.providerSubscriptionId !== null &&
        liveStatuses.has(row.status) &&
        (row.status === 'past_due' || (row.accessUntil !== null && row.accessUntil > now)),
    );
  }

  /** The provider's customer whose card page may be opened: one with a subscription running. */
  private portalCustomer(current: SubscriptionRow | undefined): string | null {
    if (
      !this.providerSync.provider.hasPortal ||
      current?.provider !== this.providerSync.provider.name
    )
      return null;
    return liveStatuses.has(current.status) ? current.providerCustomerId : null;
  }

  /** Opens the provider's hosted checkout for a plan. A free month running carries over. */
  async startCheckout(user: UserRow, plan: PlanId, language: Language): Promise<CheckoutSession> {
    const now = this.providerSync.now();
    const subscriptions = await this.providerSync.repository.subscriptionsOf(user.id);
    if (this.livePaid(subscriptions, now)) throw new AlreadySubscribed();
    const freeMonth = subscriptions.find(
      (row) => row.provider === 'promo' && row.accessUntil !== null && row.accessUntil > now,
    );
    const customerId =
      subscriptions.find(
        (row) => row.provider === this.providerSync.provider.name && row.providerCustomerId,
      )?.providerCustomerId ?? null;
    const base = this.baseUrl();
    return this.providerSync.call('opening a checkout', () =>
      this.providerSync.provider.createCheckout({
        userId: user.id,
        email: user.email,
        plan,
        language,
        successUrl: `${base}/payment/return?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${base}/payment?checkout=canceled`,
        customerId,
        trialEndsAt: freeMonth?.currentPeriodEnd.getTime() ?? null,
      }),
    );
  }

  /**
   * What the return page polls: `paid` once the provider's event has been applied here,
   * whatever the redirect said.
   */
  async checkoutStatus(user: UserRow, sessionId: string): Promise<CheckoutStatus> {
    const info = await this.providerSync.call('reading a checkout', () =>
      this.providerSync.provider.getCheckout(sessionId),
    );
    if (info?.userId !== user.id) throw new CheckoutNotFound();
    const settings = await this.options.users.findSettings(user.id);
    const authorized = settings?.authorized ?? false;
    if (info.subscriptionId) {
      const stored = await this.providerSync.repository.findSubscription(
        this.providerSync.provider.name,
        info.subscriptionId,
      );
      if (stored) return { state: 'paid', authorized };
    }
    return { state: info.status === 'expired' ? 'expired' : 'pending', authorized };
  }

  /** Cancel at the period's end (true), or keep renewing after all (false). */
  async setCancelAtPeriodEnd(user: UserRow, cancel: boolean): Promise<BillingOverview> {
    const subscription = this.livePaid(
      await this.providerSync.repository.subscriptionsOf(user.id),
      this.providerSync.now(),
    );
    const providerId = subscription?.providerSubscriptionId;
    if (!providerId) throw new NoSubscription();
    await this.providerSync.bySubscription.run(providerId, async () => {
      await this.providerSync.call('changing a subscription', () =>
        this.providerSync.provider.setCancelAtPeriodEnd(providerId, cancel),
      );
      await this.providerSync.sync(providerId, undefined, undefined);
    });
    return this.overview(user);
  }

  /**
   * The account is being deleted (decision 080): every subscription still running at the
   * provider ends now, with no further charge and no refund beyond the rules that already
   * apply. Safe to repeat: an ended subscription is left alone.
   */
  async endSubscriptionsNow(userId: string): Promise<void> {
    const running = (await this.providerSync.repository.subscriptionsOf(userId)).filter(
      (row) =>
        row.provider === this.providerSync.provider.name &&
        row.providerSubscriptionId !== null &&
        liveStatuses.has(row.status),
    );
    for (const row of running) {
      const providerId = row.providerSubscriptionId;
      if (providerId === null) continue;
      await this.providerSync.bySubscription.run(providerId, async () => {
        await this.providerSync.call('ending a subscription', () =>
          this.providerSync.provider.cancelNow(providerId),
        );
        await this.providerSync.sync(providerId, undefined, undefined);
      });
    }
  }

  /**
   * The provider's page to change the card (Stripe's customer portal, with invoices and
   * cancellation too; the simulated provider's card page). A past-due charge is retried there
   * and reported by the signed webhook; the browser comes back to /payment, which waits for it.
   */
  async portal(user: UserRow, language: Language): Promise<{ url: string }> {
    const current = currentSubscription(
      await this.providerSync.repository.subscriptionsOf(user.id),
      this.providerSync.now(),
    );
    const customerId = this.portalCustomer(current);
    if (!customerId) throw new PortalUnavailable();
    // Without access, /profile-config is closed to the user: /payment shows the state instead.
    const back = current?.status === 'past_due' ? '/payment?card=updated' : '/profile-config';
    const url = await this.providerSync.call('opening the customer portal', () =>
      this.providerSync.provider.portalUrl(customerId, `${this.baseUrl()}${back}`, language),
    );
    return { url };
  }
}

export function paymentFacts(payment: PaymentRow) {
  return { paidAt: payment.paidAt.getTime(), refundedAt: payment.refundedAt?.getTime() ?? null };
}

function subscriptionView(row: SubscriptionRow, now: Date): SubscriptionView {
  const renews =
    row.provider !== 'promo' &&
    (row.status === 'active' || row.status === 'trialing') &&
    !row.cancelAtPeriodEnd &&
    row.accessUntil !== null &&
    row.accessUntil > now;
  return {
    plan: row.plan,
    status: row.status,
    freeMonth: row.provider === 'promo',
    startedAt: row.startedAt.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    nextChargeAt: renews ? row.currentPeriodEnd.toISOString() : null,
    nextChargeCents: renews && row.plan ? plans[row.plan].priceCents : null,
    accessUntil: row.accessUntil && row.accessUntil > now ? row.accessUntil.toISOString() : null,
    retryAt: row.status === 'past_due' ? iso(row.nextPaymentAttemptAt) : null,
    endedAt: iso(row.endedAt),
  };
}

function paymentView(row: PaymentRow): PaymentView {
  return {
    id: row.id,
    plan: row.plan,
    amountCents: row.amountCents,
    currency: row.currency,
    paidAt: row.paidAt.toISOString(),
    periodEnd: row.periodEnd.toISOString(),
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    status: row.refundedAt ? 'refunded' : 'paid',
    refundedAt: iso(row.refundedAt),
  };
}
