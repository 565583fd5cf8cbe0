import { billingDurationsMs, plans } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors';
import {
  UnknownObject,
  WebhookRejected,
  type CheckoutInput,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
  type ProviderSubscription,
} from '../payments/payment-provider';
import type {
  BillingStore,
  GiftRow,
  NewPayment,
  NewSubscription,
  PaymentRow,
  SubscriptionRow,
  Tx,
} from '../repositories/billing.repository';
import { DuplicateKey } from '../repositories/errors';
import type { JobClaims } from '../repositories/job-claims.repository';
import type { MailMessage } from '../repositories/mail.repository';
import type { SettingsRow, UserRow, UsersStore } from '../repositories/users.repository';
import { renewalSlackMs } from './billing-rules';
import {
  AlreadySubscribed,
  CheckoutNotFound,
  FreeMonthUsed,
  NoSubscription,
  PaymentProviderUnavailable,
  PortalUnavailable,
  UnknownPaymentProvider,
  WebhookNotVerified,
} from './billing.errors';
import { BillingService, type GiftPlatform } from './billing.service';

const day = 86_400_000;
const now = new Date('2026-11-21T12:00:00Z');
const user = { id: 'u1', email: 'ana@example.com', name: 'Ana', language: 'es' } as UserRow;
/** The caller's transaction: the store above ignores it. */
const tx = {} as unknown as Tx;

/** A subscription as the provider has it now: a monthly one, paid, started yesterday. */
function providerSubscription(fields: Partial<ProviderSubscription> = {}): ProviderSubscription {
  return {
    id: 'sub_1',
    customerId: 'cus_1',
    userId: 'u1',
    plan: 'monthly',
    status: 'active',
    startedAt: now.getTime() - day,
    currentPeriodStart: now.getTime() - day,
    currentPeriodEnd: now.getTime() + 29 * day,
    cancelAtPeriodEnd: false,
    endedAt: null,
    nextPaymentAttemptAt: null,
    ...fields,
  };
}

function providerPayment(fields: Partial<ProviderPayment> = {}): ProviderPayment {
  return {
    id: 'pay_1',
    subscriptionId: 'sub_1',
    refundRef: 'pi_1',
    amountCents: plans.monthly.priceCents,
    currency: 'usd',
    paidAt: now.getTime() - day,
    periodStart: now.getTime() - day,
    periodEnd: now.getTime() + 29 * day,
    cardBrand: 'visa',
    cardLast4: '4242',
    refundedAt: null,
    ...fields,
  };
}

const event = (id: string, fields: Partial<ProviderEvent> = {}): ProviderEvent => ({
  id,
  type: 'invoice.paid',
  subscriptionId: 'sub_1',
  paymentId: 'pay_1',
  refundRef: null,
  ...fields,
});

/** An in-memory billing store: rows as the database would keep them, and what was called. */
class MemoryBillingStore implements BillingStore {
  readonly events = new Set<string>();
  subscriptions: SubscriptionRow[] = [];
  payments: PaymentRow[] = [];
  gift: GiftRow | undefined;
  /** What `syncAuthorized` answers: whether the stored flag changed. */
  authorizedChanges = false;
  readonly calls: string[] = [];
  private ids = 0;

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return work(tx);
  }
  subscriptionsOf(userId: string) {
    return Promise.resolve(
      this.subscriptions
        .filter((row) => row.userId === userId)
        .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime()),
    );
  }
  paymentsOf(userId: string) {
    return Promise.resolve(
      this.payments
        .filter((row) => row.userId === userId)
        .sort((a, b) => b.paidAt.getTime() - a.paidAt.getTime()),
    );
  }
  firstPayment(userId: string) {
    return this.paymentsOf(userId).then((rows) => rows.at(-1));
  }
  giftOf() {
    return Promise.resolve(this.gift);
  }
  linkedAccount() {
    return Promise.resolve(null);
  }
  findSubscription(provider: string, providerSubscriptionId: string) {
    return Promise.resolve(
      this.subscriptions.find(
        (row) => row.provider === provider && row.providerSubscriptionId === providerSubscriptionId,
      ),
    );
  }
  findPaymentByRefundRef(provider: string, refundRef: string) {
    return Promise.resolve(
      this.payments.find((row) => row.provider === provider && row.refundRef === refundRef),
    );
  }
  recordEvent(_tx: Tx, event: { provider: string; eventId: string }) {
    const key = `${event.provider}:${event.eventId}`;
    if (this.events.has(key)) return Promise.resolve(false);
    this.events.add(key);
    return Promise.resolve(true);
  }
  eventSeen(provider: string, eventId: string) {
    return Promise.resolve(this.events.has(`${provider}:${eventId}`));
  }
  upsertSubscription(_tx: Tx, row: NewSubscription) {
    this.calls.push(`upsertSubscription ${row.status}`);
    // A sync that keeps calling itself would never yield to the test's timeout.
    if (this.calls.length > 200)
      throw new Error('runaway: the same subscription stored again and again');
    const existing = this.subscriptions.find(
      (stored) =>
        stored.provider === row.provider &&
        stored.providerSubscriptionId === row.providerSubscriptionId,
    );
    const stored = { ...existing, ...row, id: existing?.id ?? `s${String(++this.ids)}` };
    this.subscriptions = [
      ...this.subscriptions.filter((other) => other !== existing),
      stored as SubscriptionRow,
    ];
    return Promise.resolve(stored as SubscriptionRow);
  }
  upsertPayment(_tx: Tx, row: NewPayment) {
    const existing = this.payments.find(
      (stored) =>
        stored.provider === row.provider && stored.providerPaymentId === row.providerPaymentId,
    );
    if (existing) {
      const refundedNow = existing.refundedAt === null && row.refundedAt != null;
      if (refundedNow) {
        existing.refundedAt = row.refundedAt ?? null;
        existing.refundReason ??= row.refundReason ?? null;
      }
      return Promise.resolve({ payment: existing, inserted: false, refundedNow });
    }
    const payment = {
      receiptSentAt: null,
      createdAt: now,
      ...row,
      id: `p${String(++this.ids)}`,
    } as PaymentRow;
    this.payments.push(payment);
    this.calls.push(`payment ${String(payment.amountCents)} ${payment.currency}`);
    return Promise.resolve({ payment, inserted: true, refundedNow: payment.refundedAt !== null });
  }
  noteRefundReason(paymentId: string, reason: string) {
    this.calls.push(`noteRefundReason ${paymentId} ${reason}`);
    const row = this.payments.find((payment) => payment.id === paymentId);
    if (row) row.refundReason = reason;
    return Promise.resolve();
  }
  hasAnySubscription(_tx: Tx, userId: string) {
    return Promise.resolve(this.subscriptions.some((row) => row.userId === userId));
  }
  insertFreeMonth(_tx: Tx, userId: string, start: Date, end: Date) {
    if (this.subscriptions.some((row) => row.userId === userId && row.provider === 'promo')) {
      return Promise.reject(new DuplicateKey());
    }
    this.calls.push('insertFreeMonth');
    this.subscriptions.push({
      id: `s${String(++this.ids)}`,
      userId,
      provider: 'promo',
      providerSubscriptionId: null,
      providerCustomerId: null,
      plan: null,
      status: 'trialing',
      startedAt: start,
      currentPeriodStart: start,
      currentPeriodEnd: end,
      cancelAtPeriodEnd: true,
      accessUntil: end,
      nextPaymentAttemptAt: null,
      endedAt: null,
      refundedAt: null,
      createdAt: start,
      updatedAt: start,
    });
    return Promise.resolve();
  }
  endFreeMonth() {
    this.calls.push('endFreeMonth');
    return Promise.resolve();
  }
  endLapsedFreeMonths() {
    return Promise.resolve([]);
  }
  syncAuthorized() {
    this.calls.push('syncAuthorized');
    return Promise.resolve(this.authorizedChanges);
  }
  endLapsedAccess() {
    return Promise.resolve([]);
  }
  periodsEnded() {
    return Promise.resolve([]);
  }
  severalRunning() {
    return Promise.resolve([]);
  }
  usersWithLapsedAccess() {
    return Promise.resolve([]);
  }
  unsentReceipts() {
    return Promise.resolve([]);
  }
  markReceiptSent(paymentId: string, at: Date) {
    const row = this.payments.find((payment) => payment.id === paymentId);
    if (row) row.receiptSentAt = at;
    return Promise.resolve();
  }
  oweGift(_tx: Tx, gift: { userId: string; paymentId: string; cents: number; owedAt: Date }) {
    this.calls.push(`oweGift ${String(gift.cents)}`);
    this.gift ??= { ...gift, status: 'owed', grantStartedAt: null, grantedAt: null };
    return Promise.resolve();
  }
  cancelOwedGift(_tx: Tx, paymentId: string) {
    this.calls.push(`cancelOwedGift ${paymentId}`);
    if (this.gift?.paymentId === paymentId && this.gift.status === 'owed') {
      this.gift = { ...this.gift, status: 'canceled' };
    }
    return Promise.resolve();
  }
  startGrant(_userId: string, at: Date) {
    if (this.gift?.status !== 'owed') return Promise.resolve(false);
    this.gift = { ...this.gift, status: 'granting', grantStartedAt: at };
    return Promise.resolve(true);
  }
  restartGrant(_userId: string, at: Date) {
    if (this.gift) this.gift = { ...this.gift, grantStartedAt: at };
    return Promise.resolve();
  }
  finishGrant(_userId: string, at: Date) {
    this.calls.push('finishGrant');
    if (this.gift) this.gift = { ...this.gift, status: 'granted', grantedAt: at };
    return Promise.resolve();
  }
  /** The platform's deposits as booked (decision 048's interrupted grant). */
  booked = false;
  depositBookedSince() {
    return Promise.resolve(this.booked);
  }
  pendingGifts() {
    return Promise.resolve(this.gift?.status === 'owed' ? [this.gift] : []);
  }
}

interface RigOptions {
  subscription?: ProviderSubscription;
  payment?: ProviderPayment;
  verify?: (rawBody: string) => ProviderEvent;
  hasPortal?: boolean;
  platform?: GiftPlatform;
  unknown?: boolean;
  checkout?: {
    status: 'open' | 'complete' | 'expired';
    userId: string;
    subscriptionId: string | null;
  };
}

/** BillingService on plain stubs: the store above, a provider answering what it is told. */
function rig(options: RigOptions = {}) {
  const repository = new MemoryBillingStore();
  const mails: MailMessage[] = [];
  const told: string[] = [];
  const errors: string[] = [];
  const ignored: string[] = [];
  const checkouts: CheckoutInput[] = [];
  const subscriptions = new Map<string, ProviderSubscription>();
  const payments = new Map<string, ProviderPayment>();
  const sub = options.subscription ?? providerSubscription();
  subscriptions.set(sub.id, sub);
  const pay = options.payment ?? providerPayment();
  payments.set(pay.id, pay);
  const provider: PaymentProvider = {
    name: 'simulated',
    hasPortal: options.hasPortal ?? true,
    createCheckout: (input) => {
      checkouts.push(input);
      return Promise.resolve({ sessionId: 'cs_1', url: 'https://pay.example/cs_1' });
    },
    getCheckout: (sessionId) =>
      Promise.resolve(options.checkout && { id: sessionId, ...options.checkout }),
    getSubscription: (id) => {
      if (options.unknown) return Promise.reject(new UnknownObject(id));
      const found = subscriptions.get(id);
      return found ? Promise.resolve(found) : Promise.reject(new Error(`no ${id}`));
    },
    getPayment: (id) => {
      if (options.unknown) return Promise.reject(new UnknownObject(id));
      const found = payments.get(id);
      return found ? Promise.resolve(found) : Promise.reject(new Error(`no ${id}`));
    },
    setCancelAtPeriodEnd: (id, cancel) => {
      told.push(`setCancelAtPeriodEnd ${id} ${String(cancel)}`);
      const found = subscriptions.get(id);
      if (found) subscriptions.set(id, { ...found, cancelAtPeriodEnd: cancel });
      return Promise.resolve();
    },
    refund: (refundRef) => {
      told.push(`refund ${refundRef}`);
      for (const [id, payment] of payments) {
        if (payment.refundRef === refundRef) {
          payments.set(id, { ...payment, refundedAt: now.getTime() });
        }
      }
      return Promise.resolve();
    },
    cancelNow: (id) => {
      told.push(`cancelNow ${id}`);
      const found = subscriptions.get(id);
      if (found) {
        subscriptions.set(id, { ...found, status: 'canceled', endedAt: now.getTime() });
      }
      return Promise.resolve();
    },
    portalUrl: (customerId, returnUrl) =>
      Promise.resolve(`https://pay.example/portal/${customerId}?back=${returnUrl}`),
    verifyWebhook: (rawBody) => {
      if (options.verify) return options.verify(rawBody);
      if (!rawBody.startsWith('signed:')) throw new WebhookRejected('bad signature');
      return JSON.parse(rawBody.slice('signed:'.length)) as ProviderEvent;
    },
  };
  const users = {
    findById: (id: string) => Promise.resolve(id === user.id ? user : undefined),
    findSettings: () => Promise.resolve({ userId: 'u1', authorized: true } as SettingsRow),
    userChanged: (id: string) => {
      told.push(`userChanged ${id}`);
      return Promise.resolve();
    },
  } as unknown as UsersStore;
  const claimed = new Set<string>();
  const claims: JobClaims = {
    owner: 'test',
    claim: (job, item) => {
      const key = `${job}:${item}`;
      if (claimed.has(key)) return Promise.resolve(undefined);
      claimed.add(key);
      return Promise.resolve({
        run: 1,
        finish: () => Promise.resolve(),
        release: () => {
          claimed.delete(key);
          return Promise.resolve();
        },
      });
    },
    once: () => Promise.reject(new Error('not used')),
    prune: () => {
      // Finished claims are forgotten after a while: only the items' own state says done.
      const count = claimed.size;
      claimed.clear();
      return Promise.resolve(count);
    },
  };
  const service = new BillingService({
    repository,
    provider,
    users,
    mailer: {
      send: (message) => {
        mails.push(message);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    },
    claims,
    clock: { now: () => now },
    platform: options.platform,
    publicUrl: () => 'https://tradebot.example/',
    onAccessChanged: (userId) => {
      told.push(`accessChanged ${userId}`);
      return Promise.resolve();
    },
    onError: (_error, what) => errors.push(what),
    onIgnoredEvent: (ignoredEvent) => ignored.push(ignoredEvent.id),
  });
  const webhook = (sent: ProviderEvent) =>
    service.handleWebhook('simulated', `signed:${JSON.stringify(sent)}`, {});
  return {
    service,
    repository,
    mails,
    told,
    errors,
    ignored,
    checkouts,
    subscriptions,
    payments,
    webhook,
    claims,
  };
}

/** The domain error's class the promise rejects with. */
const refusalOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof DomainError ? error.constructor : 'other'),
  );

describe('BillingService.handleWebhook (provider sync)', () => {
  it("refuses another provider's name and an event whose signature does not verify", async () => {
    const { service, repository } = rig();
    expect(await refusalOf(service.handleWebhook('stripe', 'signed:{}', {}))).toBe(
      UnknownPaymentProvider,
    );
    expect(await refusalOf(service.handleWebhook('simulated', '{"id":"e1"}', {}))).toBe(
      WebhookNotVerified,
    );
    expect(repository.calls).toEqual([]);
    expect(repository.events.size).toBe(0);
  });

  it('applies an event once: a replay stores, mails and tells nothing more', async () => {
    const { webhook, repository, mails, told } = rig();
    repository.authorizedChanges = true;
    await webhook(event('evt_1'));
    await webhook(event('evt_1'));
    expect(repository.calls.filter((call) => call.startsWith('upsertSubscription'))).toHaveLength(
      1,
    );
    expect(repository.payments).toHaveLength(1);
    expect(mails).toHaveLength(1);
    expect(told.filter((call) => call.startsWith('accessChanged'))).toEqual(['accessChanged u1']);
  });

  it('stores nothing when another process recorded the same event a moment before', async () => {
    const { webhook, repository, mails } = rig();
    // eventSeen said no, but the event's record in the transaction finds it there.
    repository.eventSeen = () => Promise.resolve(false);
    repository.events.add('simulated:evt_1');
    await webhook(event('evt_1'));
    expect(repository.calls).toEqual([]);
    expect(mails).toEqual([]);
  });

  it('gives access until the period ends plus the renewal slack, exactly its end when cancelling', async () => {
    const renewing = rig();
    await renewing.webhook(event('evt_1'));
    const end = providerSubscription().currentPeriodEnd;
    expect(renewing.repository.subscriptions[0]).toMatchObject({
      status: 'active',
      accessUntil: new Date(end + renewalSlackMs),
      endedAt: null,
    });
    const cancelling = rig({ subscription: providerSubscription({ cancelAtPeriodEnd: true }) });
    await cancelling.webhook(event('evt_1'));
    expect(cancelling.repository.subscriptions[0]?.accessUntil).toEqual(new Date(end));
  });

  it('takes access away at past_due (keeping the retry date), canceled and refunded', async () => {
    const retryAt = now.getTime() + 3 * day;
    const pastDue = rig({
      subscription: providerSubscription({ status: 'past_due', nextPaymentAttemptAt: retryAt }),
    });
    await pastDue.webhook(event('evt_1', { paymentId: null }));
    expect(pastDue.repository.subscriptions[0]).toMatchObject({
      status: 'past_due',
      accessUntil: null,
      nextPaymentAttemptAt: new Date(retryAt),
    });
    const canceled = rig({
      subscription: providerSubscription({ status: 'canceled', endedAt: now.getTime() }),
    });
    await canceled.webhook(event('evt_1', { paymentId: null }));
    expect(canceled.repository.subscriptions[0]).toMatchObject({
      status: 'canceled',
      accessUntil: null,
      endedAt: now,
    });
    const refundedAt = now.getTime() - 1000;
    const refunded = rig({ payment: providerPayment({ refundedAt }) });
    await refunded.webhook(event('evt_1'));
    expect(refunded.repository.subscriptions[0]).toMatchObject({
      status: 'refunded',
      accessUntil: null,
      endedAt: new Date(refundedAt),
      refundedAt: new Date(refundedAt),
    });
  });

  it('records nothing for an unfinished first payment (incomplete)', async () => {
    const { webhook, repository, mails } = rig({
      subscription: providerSubscription({ status: 'incomplete' }),
    });
    await webhook(event('evt_1'));
    expect(repository.subscriptions).toEqual([]);
    expect(repository.payments).toEqual([]);
    expect(mails).toEqual([]);
  });

  it('ends a running free month when a paid subscription starts, not when it is canceled', async () => {
    const live = rig();
    await live.webhook(event('evt_1'));
    expect(live.repository.calls).toContain('endFreeMonth');
    const ended = rig({ subscription: providerSubscription({ status: 'canceled' }) });
    await ended.webhook(event('evt_1', { paymentId: null }));
    expect(ended.repository.calls).not.toContain('endFreeMonth');
  });

  it("stores the provider's amount and currency, and mails a receipt saying it", async () => {
    // A discounted first charge: what the provider took, not the plan's list price.
    const { webhook, repository, mails } = rig({
      payment: providerPayment({ amountCents: 2_610, currency: 'usd' }),
    });
    await webhook(event('evt_1'));
    expect(repository.calls).toContain('payment 2610 usd');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe('ana@example.com');
    expect(mails[0]?.text).toMatch(/USD\s26\.10/);
    expect(repository.payments[0]?.receiptSentAt).toEqual(now);
  });

  it('tells the robot only when access changed; otherwise only the session cache', async () => {
    const unchanged = rig();
    await unchanged.webhook(event('evt_1'));
    expect(unchanged.told).toEqual(['userChanged u1']);
    const changed = rig();
    changed.repository.authorizedChanges = true;
    await changed.webhook(event('evt_1'));
    expect(changed.told).toEqual(['userChanged u1', 'accessChanged u1']);
  });

  it('owes the gift for a yearly payment only, and cancels it when that payment is refunded', async () => {
    const monthly = rig();
    await monthly.webhook(event('evt_1'));
    expect(monthly.repository.gift).toBeUndefined();
    const yearly = rig({
      subscription: providerSubscription({ plan: 'yearly' }),
      payment: providerPayment({ amountCents: plans.yearly.priceCents }),
    });
    await yearly.webhook(event('evt_1'));
    expect(yearly.repository.calls).toContain(`oweGift ${String(plans.yearly.brokerGiftCents)}`);
    expect(yearly.repository.gift?.status).toBe('owed');
    const payment = yearly.payments.get('pay_1');
    if (payment) yearly.payments.set('pay_1', { ...payment, refundedAt: now.getTime() });
    await yearly.webhook(event('evt_2', { type: 'charge.refunded' }));
    expect(yearly.repository.gift?.status).toBe('canceled');
    expect(yearly.mails).toHaveLength(2);
    expect(yearly.mails[1]?.text).toMatch(/USD\s290\.00/);
  });

  it('acknowledges and records an event about an object that is not ours', async () => {
    const { webhook, repository, ignored } = rig({ unknown: true });
    await webhook(event('evt_x'));
    expect(ignored).toEqual(['evt_x']);
    expect(repository.events.has('simulated:evt_x')).toBe(true);
    expect(repository.subscriptions).toEqual([]);
  });

  it('undoes a second running subscription: cancelled now, its payment refunded in full', async () => {
    const { webhook, repository, told, subscriptions, payments, mails } = rig();
    await webhook(event('evt_1'));
    subscriptions.set(
      'sub_2',
      providerSubscription({ id: 'sub_2', startedAt: now.getTime() - 1000 }),
    );
    payments.set(
      'pay_2',
      providerPayment({
        id: 'pay_2',
        subscriptionId: 'sub_2',
        refundRef: 'pi_2',
        paidAt: now.getTime() - 1000,
      }),
    );
    await webhook(event('evt_2', { subscriptionId: 'sub_2', paymentId: 'pay_2' }));
    expect(told).toContain('refund pi_2');
    expect(told).toContain('cancelNow sub_2');
    expect(told).not.toContain('refund pi_1');
    expect(repository.calls.some((call) => call.endsWith('duplicate_subscription'))).toBe(true);
    const second = repository.subscriptions.find((row) => row.providerSubscriptionId === 'sub_2');
    expect(second?.status).toBe('refunded');
    const first = repository.subscriptions.find((row) => row.providerSubscriptionId === 'sub_1');
    expect(first?.status).toBe('active');
    // The receipts of both payments, then the notice saying why the second was refunded.
    expect(mails).toHaveLength(3);
  });
});

describe('BillingService: the yearly gift is deposited exactly once', () => {
  function platform() {
    const deposits: number[] = [];
    const stub: GiftPlatform = {
      hasAccount: () => true,
      now: () => now.getTime(),
      deposit: (_id, cents) => {
        deposits.push(cents);
        return Promise.resolve();
      },
    };
    return { stub, deposits };
  }
  const owed: GiftRow = {
    userId: 'u1',
    paymentId: 'p1',
    cents: 5_000,
    status: 'owed',
    owedAt: now,
    grantStartedAt: null,
    grantedAt: null,
  };

  it('deposits an owed gift once, however often it is asked', async () => {
    const { stub, deposits } = platform();
    const { service, repository, claims } = rig({ platform: stub });
    repository.gift = owed;
    expect(await service.grantPendingGift('u1')).toBe(true);
    expect(await service.grantPendingGift('u1')).toBe(false);
    await claims.prune(0);
    expect(await service.grantPendingGift('u1')).toBe(false);
    expect(deposits).toEqual([5_000]);
    expect(repository.gift.status).toBe('granted');
  });

  it('deposits nothing when another process started the grant since the gift was read', async () => {
    const { stub, deposits } = platform();
    const { service, repository } = rig({ platform: stub });
    repository.gift = owed;
    // The row read says owed, but the owed -> granting step finds it taken.
    repository.startGrant = () => Promise.resolve(false);
    expect(await service.grantPendingGift('u1')).toBe(false);
    expect(deposits).toEqual([]);
  });

  it('finishes an interrupted grant whose deposit was booked without depositing again', async () => {
    const { stub, deposits } = platform();
    const { service, repository } = rig({ platform: stub });
    repository.gift = { ...owed, status: 'granting', grantStartedAt: now };
    repository.booked = true;
    expect(await service.grantPendingGift('u1')).toBe(true);
    expect(deposits).toEqual([]);
    expect(repository.gift.status).toBe('granted');
  });

  it('deposits nothing where no platform account exists yet', async () => {
    const { stub, deposits } = platform();
    const { service, repository } = rig({ platform: { ...stub, hasAccount: () => false } });
    repository.gift = owed;
    expect(await service.grantPendingGift('u1')).toBe(false);
    expect(deposits).toEqual([]);
    expect(repository.gift.status).toBe('owed');
  });
});

describe('BillingService: checkout', () => {
  /** A stored subscription row of the simulated provider. */
  const row = (fields: Partial<SubscriptionRow>): SubscriptionRow =>
    ({
      id: 's9',
      userId: 'u1',
      provider: 'simulated',
      providerSubscriptionId: 'sub_9',
      providerCustomerId: 'cus_9',
      plan: 'monthly',
      status: 'active',
      startedAt: new Date(now.getTime() - day),
      currentPeriodStart: new Date(now.getTime() - day),
      currentPeriodEnd: new Date(now.getTime() + 29 * day),
      cancelAtPeriodEnd: false,
      accessUntil: new Date(now.getTime() + 30 * day),
      nextPaymentAttemptAt: null,
      endedAt: null,
      refundedAt: null,
      ...fields,
    }) as SubscriptionRow;

  it('refuses a second checkout while a paid subscription runs, past due included', async () => {
    for (const running of [row({}), row({ status: 'past_due', accessUntil: null })]) {
      const { service, repository, checkouts } = rig();
      repository.subscriptions = [running];
      expect(await refusalOf(service.startCheckout(user, 'yearly', 'es'))).toBe(AlreadySubscribed);
      expect(checkouts).toEqual([]);
    }
  });

  it('opens a checkout after an ended one, for the same customer, with links to our address', async () => {
    const { service, repository, checkouts } = rig();
    repository.subscriptions = [row({ status: 'canceled', accessUntil: null })];
    expect(await service.startCheckout(user, 'yearly', 'pt')).toEqual({
      sessionId: 'cs_1',
      url: 'https://pay.example/cs_1',
    });
    expect(checkouts[0]).toMatchObject({
      userId: 'u1',
      plan: 'yearly',
      language: 'pt',
      customerId: 'cus_9',
      trialEndsAt: null,
      successUrl: 'https://tradebot.example/payment/return?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://tradebot.example/payment?checkout=canceled',
    });
  });

  it('carries a running free month over: the first charge waits until it ends', async () => {
    const { service, checkouts } = rig();
    const end = await service.startFreeMonth(tx, 'u1');
    await service.startCheckout(user, 'monthly', 'es');
    expect(checkouts[0]?.trialEndsAt).toBe(end.getTime());
    expect(end.getTime()).toBe(now.getTime() + billingDurationsMs.freeMonth);
  });

  it("answers paid only once the provider's event was stored, never from the redirect", async () => {
    const complete = { status: 'complete' as const, userId: 'u1', subscriptionId: 'sub_1' };
    const { service, webhook } = rig({ checkout: complete });
    expect(await service.checkoutStatus(user, 'cs_1')).toEqual({
      state: 'pending',
      authorized: true,
    });
    await webhook(event('evt_1'));
    expect((await service.checkoutStatus(user, 'cs_1')).state).toBe('paid');
  });

  it("refuses another user's checkout session", async () => {
    const theirs = { status: 'complete' as const, userId: 'u2', subscriptionId: 'sub_1' };
    const { service } = rig({ checkout: theirs });
    expect(await refusalOf(service.checkoutStatus(user, 'cs_1'))).toBe(CheckoutNotFound);
    expect(await refusalOf(rig().service.checkoutStatus(user, 'cs_x'))).toBe(CheckoutNotFound);
  });

  it('answers the provider being unavailable when a call to it fails', async () => {
    const { service, errors } = rig();
    (
      service as unknown as { options: { provider: PaymentProvider } }
    ).options.provider.createCheckout = () => Promise.reject(new Error('ECONNRESET'));
    expect(await refusalOf(service.startCheckout(user, 'monthly', 'es'))).toBe(
      PaymentProviderUnavailable,
    );
    expect(errors).toEqual(['opening a checkout']);
  });

  it('cancels at the period end at the provider and stores what it says; none to cancel is refused', async () => {
    const none = rig();
    expect(await refusalOf(none.service.setCancelAtPeriodEnd(user, true))).toBe(NoSubscription);
    const { service, webhook, told, repository } = rig();
    await webhook(event('evt_1'));
    const overview = await service.setCancelAtPeriodEnd(user, true);
    expect(told).toContain('setCancelAtPeriodEnd sub_1 true');
    expect(repository.subscriptions[0]?.cancelAtPeriodEnd).toBe(true);
    expect(overview.subscription?.nextChargeAt).toBeNull();
  });

  it('opens the card page only for a running subscription, back to /payment when past due', async () => {
    const { service, repository } = rig();
    expect(await refusalOf(service.portal(user, 'es'))).toBe(PortalUnavailable);
    repository.subscriptions = [row({ status: 'canceled', accessUntil: null })];
    expect(await refusalOf(service.portal(user, 'es'))).toBe(PortalUnavailable);
    repository.subscriptions = [row({ status: 'past_due', accessUntil: null })];
    expect((await service.portal(user, 'es')).url).toBe(
      'https://pay.example/portal/cus_9?back=https://tradebot.example/payment?card=updated',
    );
    repository.subscriptions = [row({})];
    expect((await service.portal(user, 'es')).url).toContain(
      'back=https://tradebot.example/profile-config',
    );
    const noPortal = rig({ hasPortal: false });
    noPortal.repository.subscriptions = [row({})];
    expect(await refusalOf(noPortal.service.portal(user, 'es'))).toBe(PortalUnavailable);
  });

  it('offers the refund of the first payment, at its amount, within 7 days only', async () => {
    const { service, webhook } = rig({ payment: providerPayment({ amountCents: 2_900 }) });
    await webhook(event('evt_1'));
    const overview = await service.overview(user);
    expect(overview.refund).toEqual({
      eligible: true,
      until: new Date(now.getTime() - day + billingDurationsMs.refundWindow).toISOString(),
      amountCents: 2_900,
    });
    const late = rig({ payment: providerPayment({ paidAt: now.getTime() - 8 * day }) });
    await late.webhook(event('evt_1'));
    expect((await late.service.overview(user)).refund).toMatchObject({
      eligible: false,
      amountCents: null,
    });
  });
});

describe('BillingService: the free month', () => {
  it('is given once per user, and not after a paid subscription', async () => {
    const { service } = rig();
    await service.startFreeMonth(tx, 'u1');
    expect(await refusalOf(service.startFreeMonth(tx, 'u1'))).toBe(FreeMonthUsed);
    const paid = rig();
    await paid.webhook(event('evt_1'));
    expect(await refusalOf(paid.service.startFreeMonth(tx, 'u1'))).toBe(FreeMonthUsed);
  });

  it('refuses a second free month raced past the check (the unique key)', async () => {
    const { service, repository } = rig();
    await service.startFreeMonth(tx, 'u1');
    repository.hasAnySubscription = () => Promise.resolve(false);
    expect(await refusalOf(service.startFreeMonth(tx, 'u1'))).toBe(FreeMonthUsed);
  });
});
