import { billingDurationsMs, plans, type Language } from '@tradebot/contract';
import { DomainError } from '../domain/errors';
import { formatAmount, formatDay } from '../formats';
import {
  UnknownObject,
  WebhookRejected,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
  type ProviderSubscription,
} from '../payments/payment-provider';
import type { BillingStore, PaymentRow, Tx } from '../repositories/billing.repository';
import type { Clock } from '../repositories/clock';
import type { JobClaims } from '../repositories/job-claims.repository';
import type { Mailer } from '../repositories/mail.repository';
import type { UserRow, UsersStore } from '../repositories/users.repository';
import { accessUntil, ourStatus } from './billing-rules';
import {
  PaymentProviderUnavailable,
  UnknownPaymentProvider,
  WebhookNotVerified,
} from './billing.errors';
import { KeyedQueue } from './keyed-queue';
import { duplicateRefundMail, paymentReceiptMail, refundMail } from './mail-templates';

/**
 * Where the yearly plan's gift is deposited: the built-in trading platform (the robot runtime).
 * `now` is the platform's clock, the time its deposits are booked at.
 */
export interface GiftPlatform {
  /** Whether the user has an account at the built-in platform (scaled set-up: in the database). */
  hasAccount(accountId: string): boolean | Promise<boolean>;
  now(): number;
  deposit(accountId: string, cents: number): Promise<void>;
}

/** A provider with work of its own on the clock (the simulated one: renewals, deliveries). */
export type ClockedPaymentProvider = PaymentProvider & { runDue?(): Promise<void> };

export interface BillingServiceOptions {
  repository: BillingStore;
  provider: ClockedPaymentProvider;
  users: UsersStore;
  mailer: Mailer;
  /** Receipts and gifts are claimed before they go out: one process sends each (decision 078). */
  claims: JobClaims;
  clock: Clock;
  /** Absent where no robot runs: gifts then wait for a process that has one. */
  platform: GiftPlatform | undefined;
  /**
   * The app's address for the provider's links back: PUBLIC_URL, else the address the server
   * listens on. Never a request's Host or X-Forwarded-Host, which anyone can forge (issue 18).
   */
  publicUrl: () => string;
  /** After `authorized` changed and was stored: the robot follows it (decision 047). */
  onAccessChanged: (userId: string) => Promise<void>;
  /** A charge failed and was stored (the subscription became past due): the user is told. */
  onChargeFailed?: (userId: string) => Promise<void>;
  onError: (error: unknown, what: string) => void;
  /** A verified event about an object we do not know, acknowledged and ignored: log its id and type only. */
  onIgnoredEvent: (event: { id: string; type: string }) => void;
  /** A second subscription undone at once (ids only, for the log). */
  onDuplicate?: (undone: { userId: string; subscriptionId: string }) => void;
}

export type RefundReason = 'refund_7_days' | 'guarantee_30_days' | 'duplicate_subscription';

interface StoredEffects {
  userId: string;
  receiptPaymentId: string | null;
  refunded: PaymentRow | null;
  giftOwed: boolean;
  authorizedChanged: boolean;
  /** The subscription became past due now: a charge failed (decision 058). */
  chargeFailed: boolean;
}

/** Subscription statuses that are still running at the provider. */
export const liveStatuses = new Set(['trialing', 'active', 'past_due']);
const receiptJob = 'billing.receipt';
const giftJob = 'billing.gift';

/**
 * Billing's provider sync (decision 047): payment state comes only from the provider, from its
 * signed events or from its answers to our own calls, never from the browser coming back. Each
 * change is read from the provider and stored in one transaction with the event's record, one
 * task at a time per subscription; then its effects follow: caches and the robot, receipts and
 * refund notices, the yearly plan's gift. Checkout, refunds and the billing clock call into it.
 */
export class BillingProviderSync {
  /** One task at a time per provider subscription: see KeyedQueue. */
  readonly bySubscription = new KeyedQueue();
  private readonly byGift = new KeyedQueue();

  constructor(private readonly options: BillingServiceOptions) {}

  get provider() {
    return this.options.provider;
  }
  get repository() {
    return this.options.repository;
  }
  now(): Date {
    return this.options.clock.now();
  }

  /** A call to the provider: a failure is logged and answered as the provider being unavailable. */
  async call<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.options.onError(error, what);
      throw new PaymentProviderUnavailable();
    }
  }

  /** After a commit that changed `authorized`: caches drop it and the robot follows. */
  async accessChanged(userId: string): Promise<void> {
    await this.options.users.userChanged(userId);
    try {
      await this.options.onAccessChanged(userId);
    } catch (error) {
      this.options.onError(error, 'applying access to the robot');
    }
  }

  // ---- Provider events ----

  /** A provider's webhook: verified, then applied once (replays and disorder change nothing). */
  async handleWebhook(
    providerName: string,
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<void> {
    if (providerName !== this.provider.name) throw new UnknownPaymentProvider();
    let event: ProviderEvent;
    try {
      event = this.provider.verifyWebhook(rawBody, headers, this.now().getTime());
    } catch (error) {
      if (error instanceof WebhookRejected) throw new WebhookNotVerified();
      throw error;
    }
    await this.bySubscription.run(event.subscriptionId ?? event.refundRef ?? event.id, () =>
      this.applyEvent(event),
    );
  }

  /**
   * An event about a subscription, customer or payment we do not know (made by another
   * integration on the same provider account, or deleted since) is answered 200 and recorded,
   * so the provider stops retrying it; any other failure is a 500 and the provider retries.
   */
  private async applyEvent(event: ProviderEvent): Promise<void> {
    try {
      await this.applyKnownEvent(event);
    } catch (error) {
      if (!(error instanceof UnknownObject)) throw error;
      await this.repository.transaction((tx) => this.recordEvent(tx, event));
      this.options.onIgnoredEvent({ id: event.id, type: event.type });
    }
  }

  private async applyKnownEvent(event: ProviderEvent): Promise<void> {
    if (await this.repository.eventSeen(this.provider.name, event.id)) return;
    let paymentId = event.paymentId;
    if (!paymentId && event.refundRef) {
      paymentId =
        (await this.repository.findPaymentByRefundRef(this.provider.name, event.refundRef))
          ?.providerPaymentId ?? null;
    }
    const payment = paymentId ? await this.provider.getPayment(paymentId) : undefined;
    const subscriptionId = event.subscriptionId ?? payment?.subscriptionId ?? null;
    if (!subscriptionId) {
      // Nothing of ours yet (a refund of a payment whose own event is still to come): the
      // payment's event reads the refund when it arrives.
      await this.repository.transaction((tx) => this.recordEvent(tx, event));
      return;
    }
    await this.sync(subscriptionId, payment, event);
  }

  private async recordEvent(tx: Tx, event: ProviderEvent): Promise<boolean> {
    return this.repository.recordEvent(tx, {
      provider: this.provider.name,
      eventId: event.id,
      type: event.type,
      receivedAt: this.now(),
    });
  }

  /**
   * Reads the subscription (and a payment) as the provider has them now and stores that, in
   * one transaction with the event's record; then the effects: caches, robot, e-mail, gift.
   */
  async sync(
    subscriptionId: string,
    payment: ProviderPayment | string | undefined,
    event: ProviderEvent | undefined,
  ): Promise<void> {
    const subscription = await this.provider.getSubscription(subscriptionId);
    const current = typeof payment === 'string' ? await this.provider.getPayment(payment) : payment;
    const user = await this.options.users.findById(subscription.userId);
    const now = this.now();
    const effects = await this.repository.transaction(
      async (tx): Promise<StoredEffects | undefined> => {
        if (event && !(await this.recordEvent(tx, event))) return undefined;
        if (!user) return undefined;
        const existing = await this.repository.findSubscription(
          this.provider.name,
          subscription.id,
          tx,
        );
        const refundedAt =
          existing?.refundedAt ?? (current?.refundedAt ? new Date(current.refundedAt) : null);
        const status = ourStatus(subscription.status, refundedAt !== null);
        // An unfinished first payment (Stripe's incomplete): nothing to record yet.
        if (!status) return undefined;
        const until = accessUntil({ ...subscription, status });
        const stored = await this.repository.upsertSubscription(tx, {
          userId: user.id,
          provider: this.provider.name,
          providerSubscriptionId: subscription.id,
          providerCustomerId: subscription.customerId,
          plan: subscription.plan,
          status,
          startedAt: new Date(subscription.startedAt),
          currentPeriodStart: new Date(subscription.currentPeriodStart),
          currentPeriodEnd: new Date(subscription.currentPeriodEnd),
          cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
          accessUntil: until === null ? null : new Date(until),
          nextPaymentAttemptAt:
            status === 'past_due' && subscription.nextPaymentAttemptAt !== null
              ? new Date(subscription.nextPaymentAttemptAt)
              : null,
          endedAt:
            subscription.endedAt !== null
              ? new Date(subscription.endedAt)
              : status === 'refunded'
                ? (refundedAt ?? now)
                : null,
          refundedAt,
          createdAt: now,
          updatedAt: now,
        });
        if (liveStatuses.has(status)) await this.repository.endFreeMonth(tx, user.id, now);
        const effects: StoredEffects = {
          userId: user.id,
          receiptPaymentId: null,
          refunded: null,
          giftOwed: false,
          authorizedChanged: false,
          chargeFailed: status === 'past_due' && existing?.status !== 'past_due',
        };
        if (current) {
          const {
            payment: row,
            inserted,
            refundedNow,
          } = await this.repository.upsertPayment(tx, {
            userId: user.id,
            subscriptionId: stored.id,
            provider: this.provider.name,
            providerPaymentId: current.id,
            refundRef: current.refundRef,
            plan: subscription.plan,
            amountCents: current.amountCents,
            currency: current.currency,
            paidAt: new Date(current.paidAt),
            periodStart: new Date(current.periodStart),
            periodEnd: new Date(current.periodEnd),
            cardBrand: current.cardBrand,
            cardLast4: current.cardLast4,
            refundedAt: current.refundedAt === null ? null : new Date(current.refundedAt),
            refundReason: current.refundedAt === null ? null : 'provider',
          });
          if (inserted) effects.receiptPaymentId = row.id;
          if (row.refundedAt) {
            await this.repository.cancelOwedGift(tx, row.id);
            if (refundedNow) effects.refunded = row;
          } else if (inserted && subscription.plan === 'yearly') {
            await this.repository.oweGift(tx, {
              userId: user.id,
              paymentId: row.id,
              cents: plans.yearly.brokerGiftCents,
              owedAt: now,
            });
            effects.giftOwed = true;
          }
        }
        effects.authorizedChanged = await this.repository.syncAuthorized(user.id, now, tx);
        return effects;
      },
    );
    if (effects && user) {
      // A second subscription is undone before its effects (the yearly gift) follow.
      if (await this.undoDuplicate(user, subscription)) effects.giftOwed = false;
      await this.afterCommit(effects, user);
    }
  }

  /**
   * One subscription per user, held where the money is taken (issue 18): a provider that
   * cannot refuse a second checkout's payment (Stripe; two checkouts opened before paying)
   * is undone here at once. The subscription kept is the user's earliest one still running;
   * any other is canceled now, and its payments taken since the kept one started are refunded
   * in full, each with its receipt and an e-mail saying why. Deterministic, so two events
   * handled side by side agree on which one stays. Runs inside the subscription's queue.
   */
  private async undoDuplicate(user: UserRow, subscription: ProviderSubscription): Promise<boolean> {
    const rows = await this.repository.subscriptionsOf(user.id);
    const running = rows
      .filter(
        (row) =>
          row.provider === this.provider.name &&
          row.providerSubscriptionId !== null &&
          liveStatuses.has(row.status),
      )
      .sort(
        (a, b) =>
          a.startedAt.getTime() - b.startedAt.getTime() ||
          (a.providerSubscriptionId ?? '').localeCompare(b.providerSubscriptionId ?? ''),
      );
    const kept = running[0];
    if (!kept || kept.providerSubscriptionId === subscription.id) return false;
    const own = rows.find((row) => row.providerSubscriptionId === subscription.id);
    if (!own) return false;
    const toRefund = (await this.repository.paymentsOf(user.id)).filter(
      (row) =>
        row.subscriptionId === own.id && row.refundedAt === null && row.paidAt >= kept.startedAt,
    );
    if (toRefund.length === 0 && !liveStatuses.has(own.status)) return false;
    this.options.onDuplicate?.({ userId: user.id, subscriptionId: subscription.id });
    try {
      for (const row of toRefund) {
        await this.repository.noteRefundReason(row.id, 'duplicate_subscription');
        await this.provider.refund(row.refundRef);
      }
      if (liveStatuses.has(own.status)) await this.provider.cancelNow(subscription.id);
    } catch (error) {
      // Not lost: the next event about this subscription, or the clock's sweep, tries again.
      this.options.onError(error, 'undoing a second subscription');
      return false;
    }
    for (const row of toRefund) await this.sync(subscription.id, row.providerPaymentId, undefined);
    if (toRefund.length === 0) await this.sync(subscription.id, undefined, undefined);
    return true;
  }

  private async afterCommit(effects: StoredEffects, user: UserRow): Promise<void> {
    // Told first: its notice then goes out before the robot's own "access ended" one.
    if (effects.chargeFailed && this.options.onChargeFailed) {
      await this.options.onChargeFailed(user.id).catch((error: unknown) => {
        this.options.onError(error, 'telling of a failed charge');
      });
    }
    if (effects.authorizedChanged) await this.accessChanged(user.id);
    else await this.options.users.userChanged(user.id);
    if (effects.receiptPaymentId) await this.sendReceipt(user, effects.receiptPaymentId);
    if (effects.refunded) await this.sendRefundNotice(user, effects.refunded);
    if (effects.giftOwed) {
      await this.grantPendingGift(user.id).catch((error: unknown) => {
        this.options.onError(error, 'granting the broker gift');
      });
    }
  }

  // ---- E-mail ----

  async sendReceipt(user: UserRow, paymentId: string): Promise<void> {
    // Another process sending (or having sent) this receipt holds its claim.
    const claim = await this.options.claims.claim(receiptJob, paymentId);
    if (!claim) return;
    const language = languageOf(user);
    const payments = await this.repository.paymentsOf(user.id);
    const payment = payments.find((row) => row.id === paymentId);
    if (!payment || payment.receiptSentAt) {
      await claim.release();
      return;
    }
    const isFirst = payments.at(-1)?.id === payment.id;
    const gift = await this.repository.giftOf(user.id);
    try {
      await this.options.mailer.send(
        await paymentReceiptMail(language, user.email, user.name, {
          plan: payment.plan,
          amount: formatAmount(language, payment.amountCents),
          paidAt: formatDay(language, payment.paidAt),
          periodEnd: formatDay(language, payment.periodEnd),
          card: payment.cardLast4
            ? `${capitalize(payment.cardBrand ?? 'card')} •••• ${payment.cardLast4}`
            : null,
          refundUntil: isFirst
            ? formatDay(
                language,
                new Date(payment.paidAt.getTime() + billingDurationsMs.refundWindow),
              )
            : null,
          giftAmount: gift?.paymentId === payment.id ? formatAmount(language, gift.cents) : null,
        }),
      );
      await this.repository.markReceiptSent(payment.id, this.now());
      await claim.finish();
    } catch (error) {
      await claim.release().catch(() => undefined);
      this.options.onError(error, 'sending a receipt');
    }
  }

  private async sendRefundNotice(user: UserRow, payment: PaymentRow): Promise<void> {
    const language = languageOf(user);
    const mail =
      payment.refundReason === 'duplicate_subscription' ? duplicateRefundMail : refundMail;
    try {
      await this.options.mailer.send(
        await mail(language, user.email, user.name, formatAmount(language, payment.amountCents)),
      );
    } catch (error) {
      this.options.onError(error, 'sending a refund notice');
    }
  }

  // ---- The yearly plan's gift ----

  /**
   * Deposits the yearly plan's gift on the user's platform account, exactly once: after a
   * yearly payment when the account exists, and from the linking flow right after it opens
   * the account. A deposit interrupted between the platform and our record is recognised
   * (decision 048). Returns true when the gift is granted now.
   */
  grantPendingGift(userId: string): Promise<boolean> {
    return this.byGift.run(userId, async () => {
      const platform = this.options.platform;
      if (!platform || !(await platform.hasAccount(userId))) return false;
      // One process at a time: two finding the same grant interrupted would both deposit.
      const claim = await this.options.claims.claim(giftJob, userId);
      if (!claim) return false;
      try {
        const granted = await this.grantClaimedGift(userId, platform);
        if (granted) await claim.finish();
        else await claim.release();
        return granted;
      } catch (error) {
        await claim.release().catch(() => undefined);
        throw error;
      }
    });
  }

  /** The grant itself, under this process's claim (decision 048 for the interrupted case). */
  private async grantClaimedGift(userId: string, platform: GiftPlatform): Promise<boolean> {
    const gift = await this.repository.giftOf(userId);
    if (!gift || gift.status === 'granted' || gift.status === 'canceled') return false;
    if (gift.status === 'granting' && gift.grantStartedAt) {
      if (await this.repository.depositBookedSince(userId, gift.cents, gift.grantStartedAt)) {
        await this.repository.finishGrant(userId, this.now());
        return true;
      }
      await this.repository.restartGrant(userId, new Date(platform.now()));
    } else if (!(await this.repository.startGrant(userId, new Date(platform.now())))) {
      return false;
    }
    await platform.deposit(userId, gift.cents);
    await this.repository.finishGrant(userId, this.now());
    return true;
  }

  /** Every gift still waiting whose user has a platform account (at start, and on the clock). */
  async grantPendingGifts(): Promise<void> {
    if (!this.options.platform) return;
    for (const gift of await this.repository.pendingGifts()) {
      await this.grantPendingGift(gift.userId).catch((error: unknown) => {
        this.options.onError(error, 'granting the broker gift');
      });
    }
  }
}

function languageOf(user: UserRow): Language {
  return user.language === 'pt' ? 'pt' : 'es';
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
