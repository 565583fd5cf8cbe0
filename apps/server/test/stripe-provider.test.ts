import { plans } from '@tradebot/contract';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookRejected } from '../src/payments/payment-provider';
import { StripePaymentProvider } from '../src/payments/stripe/stripe-provider';
import { useTestApp } from './helpers/app';
import { simpleParser } from 'mailparser';
import {
  bearer,
  getSettings,
  manualClock,
  readMails,
  registeredToken,
  v1,
} from './helpers/accounts';
import { billingAction, overview, startCheckout } from './helpers/billing';
import { FakeStripe } from './helpers/fake-stripe';

const webhookSecret = 'whsec_fakefakefakefake';
const stripeSdk = new Stripe('sk_test_fakefakefake');
/** Stripe-Signature made by the SDK's own test helper. */
const sign = (payload: string, timestamp = Math.floor(Date.now() / 1000), secret = webhookSecret) =>
  stripeSdk.webhooks.generateTestHeaderString({ payload, secret, timestamp });

const fake = new FakeStripe();
let port = 0;
beforeAll(async () => {
  port = await fake.start();
});
afterAll(async () => {
  await fake.stop();
});

function adapter() {
  return new StripePaymentProvider({
    secretKey: 'sk_test_fakefakefake',
    webhookSecret,
    host: '127.0.0.1',
    port,
    protocol: 'http',
  });
}

describe('the Stripe adapter against a local server answering as Stripe', () => {
  it('opens Checkout in subscription mode with the contract’s amounts', async () => {
    const stripe = adapter();
    const session = await stripe.createCheckout({
      userId: 'user-1',
      email: 'maria@example.com',
      plan: 'yearly',
      language: 'pt',
      successUrl: 'http://app.test/payment/return?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'http://app.test/payment?checkout=canceled',
      customerId: null,
      trialEndsAt: Date.now() + 10 * 86_400_000,
    });
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const call = fake.calls.at(-1);
    expect(call?.method).toBe('POST');
    expect(call?.path).toBe('/v1/checkout/sessions');
    expect(call?.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': String(plans.yearly.priceCents),
      'line_items[0][price_data][recurring][interval]': 'year',
      client_reference_id: 'user-1',
      customer_email: 'maria@example.com',
      'metadata[user_id]': 'user-1',
      'subscription_data[metadata][plan]': 'yearly',
      success_url: 'http://app.test/payment/return?session_id={CHECKOUT_SESSION_ID}',
      locale: 'pt-BR',
    });
    expect(call?.params['subscription_data[trial_end]']).toBeDefined();

    await stripe.createCheckout({
      userId: 'user-1',
      email: 'maria@example.com',
      plan: 'monthly',
      language: 'es',
      successUrl: 'http://app.test/ok',
      cancelUrl: 'http://app.test/no',
      customerId: 'cus_test_known',
      // Less than two days of free month left: not carried (Stripe would refuse it).
      trialEndsAt: Date.now() + 86_400_000,
    });
    const second = fake.calls.at(-1)?.params ?? {};
    expect(second.customer).toBe('cus_test_known');
    expect(second.customer_email).toBeUndefined();
    expect(second['subscription_data[trial_end]']).toBeUndefined();
    expect(second.locale).toBe('es-419');
  });

  it('reads checkouts, subscriptions and payments; refunds and cancels idempotently', async () => {
    const stripe = adapter();
    expect(await stripe.getCheckout('cs_test_missing')).toBeUndefined();
    const { sessionId } = await stripe.createCheckout({
      userId: 'user-2',
      email: 'ana@example.com',
      plan: 'monthly',
      language: 'es',
      successUrl: 'http://app.test/ok',
      cancelUrl: 'http://app.test/no',
      customerId: null,
      trialEndsAt: null,
    });
    expect(await stripe.getCheckout(sessionId)).toEqual({
      id: sessionId,
      status: 'open',
      userId: 'user-2',
      subscriptionId: null,
    });
    const paid = fake.complete(sessionId, { brand: 'mastercard', last4: '4444' });
    expect((await stripe.getCheckout(sessionId))?.status).toBe('complete');

    const subscription = await stripe.getSubscription(paid.subscriptionId);
    expect(subscription).toMatchObject({
      id: paid.subscriptionId,
      customerId: paid.customerId,
      userId: 'user-2',
      plan: 'monthly',
      status: 'active',
      cancelAtPeriodEnd: false,
      endedAt: null,
    });
    expect(subscription.currentPeriodEnd).toBeGreaterThan(subscription.currentPeriodStart);

    const payment = await stripe.getPayment(paid.invoiceId);
    expect(payment).toMatchObject({
      id: paid.invoiceId,
      subscriptionId: paid.subscriptionId,
      refundRef: paid.intentId,
      amountCents: plans.monthly.priceCents,
      currency: 'USD',
      cardBrand: 'mastercard',
      cardLast4: '4444',
      refundedAt: null,
    });

    await stripe.setCancelAtPeriodEnd(paid.subscriptionId, true);
    expect((await stripe.getSubscription(paid.subscriptionId)).cancelAtPeriodEnd).toBe(true);
    await stripe.refund(paid.intentId);
    await stripe.refund(paid.intentId);
    expect((await stripe.getPayment(paid.invoiceId)).refundedAt).not.toBeNull();
    await stripe.cancelNow(paid.subscriptionId);
    await stripe.cancelNow(paid.subscriptionId);
    expect((await stripe.getSubscription(paid.subscriptionId)).status).toBe('canceled');
    expect(fake.calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);

    expect(await stripe.portalUrl(paid.customerId, 'http://app.test/profile-config', 'pt')).toMatch(
      /^https:\/\/billing\.stripe\.test\//,
    );
  });

  it('checks webhook signatures with the SDK; refuses a wrong one and a stale one', () => {
    const stripe = adapter();
    const now = Date.now();
    const body = JSON.stringify({
      id: 'evt_test_1',
      object: 'event',
      type: 'customer.subscription.updated',
      data: { object: { id: 'sub_test_1', object: 'subscription' } },
    });
    expect(stripe.verifyWebhook(body, { 'stripe-signature': sign(body) }, now)).toEqual({
      id: 'evt_test_1',
      type: 'customer.subscription.updated',
      subscriptionId: 'sub_test_1',
      paymentId: null,
      refundRef: null,
    });
    expect(() =>
      stripe.verifyWebhook(
        body,
        { 'stripe-signature': sign(body, undefined, 'whsec_otherother') },
        now,
      ),
    ).toThrow(WebhookRejected);
    expect(() =>
      stripe.verifyWebhook(
        body,
        { 'stripe-signature': sign(body, Math.floor(now / 1000) - 301) },
        now,
      ),
    ).toThrow(WebhookRejected);
    expect(() => stripe.verifyWebhook(body, {}, now)).toThrow(WebhookRejected);
    expect(() =>
      stripe.verifyWebhook(
        body.replace('sub_test_1', 'sub_test_2'),
        { 'stripe-signature': sign(body) },
        now,
      ),
    ).toThrow(WebhookRejected);
  });
});

describe('billing with Stripe as the provider', () => {
  const clock = manualClock(new Date());
  const context = useTestApp({}, () => ({
    clock,
    billingTimers: false,
    paymentProvider: adapter(),
  }));

  it('checkout, the signed events, the portal and the 7-day refund', async () => {
    const { app } = context;
    const token = await registeredToken(app);
    const { sessionId, url } = await startCheckout(app, token, 'monthly');
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const paid = fake.complete(sessionId);

    const post = (payload: string, signature = sign(payload)) =>
      app.inject({
        method: 'POST',
        url: `${v1}/billing/webhooks/stripe`,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
        },
        payload,
      });
    const completed = fake.event('checkout.session.completed', sessionId);
    const invoicePaid = fake.event('invoice.paid', paid.invoiceId);
    expect((await post(completed, sign(completed, undefined, 'whsec_otherother'))).statusCode).toBe(
      400,
    );
    for (let replay = 0; replay < 10; replay++) {
      expect((await post(invoicePaid)).statusCode).toBe(200);
      expect((await post(completed)).statusCode).toBe(200);
    }
    expect(
      (await getSettings(app, token)).json<{ data: { authorized: boolean } }>().data.authorized,
    ).toBe(true);
    const billing = await overview(app, token);
    expect(billing.provider).toBe('stripe');
    expect(billing.portal).toBe(true);
    expect(billing.payments).toEqual([
      expect.objectContaining({ cardBrand: 'visa', cardLast4: '4242', amountCents: 2900 }),
    ]);

    const portal = await billingAction(app, token, 'portal');
    expect(portal.json<{ data: { url: string } }>().data.url).toMatch(/billing\.stripe\.test/);
    expect(fake.calls.at(-1)?.params).toMatchObject({ customer: paid.customerId });

    const refund = await billingAction(app, token, 'refund');
    expect(refund.statusCode).toBe(200);
    expect(fake.calls.some((call) => call.path === '/v1/refunds')).toBe(true);
    expect(fake.get(paid.subscriptionId).status).toBe('canceled');
    // Stripe then tells us too: nothing changes.
    expect((await post(fake.event('charge.refunded', paid.chargeId))).statusCode).toBe(200);
    expect(
      (await post(fake.event('customer.subscription.deleted', paid.subscriptionId))).statusCode,
    ).toBe(200);
    const after = await overview(app, token);
    expect(after.subscription?.status).toBe('refunded');
    expect(after.authorized).toBe(false);
    expect(
      (await app.inject({ url: `${v1}/billing`, headers: bearer(token) })).json<{
        data: { payments: { status: string }[] };
      }>().data.payments[0]?.status,
    ).toBe('refunded');
  });
});

describe('a past_due Stripe subscription paid again through the customer portal', () => {
  const clock = manualClock(new Date());
  const context = useTestApp({}, () => ({
    clock,
    billingTimers: false,
    paymentProvider: adapter(),
  }));

  it('past_due ends access and shows the retry; invoice.paid after the portal makes it active', async () => {
    const { app } = context;
    const token = await registeredToken(app);
    const post = (payload: string) =>
      app.inject({
        method: 'POST',
        url: `${v1}/billing/webhooks/stripe`,
        headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload) },
        payload,
      });
    const { sessionId } = await startCheckout(app, token, 'monthly');
    const paid = fake.complete(sessionId);
    expect((await post(fake.event('invoice.paid', paid.invoiceId))).statusCode).toBe(200);
    expect((await overview(app, token)).subscription?.status).toBe('active');

    const retryAt = Date.now() + 3 * 86_400_000;
    const failed = fake.renewalFails(paid.subscriptionId, retryAt);
    expect((await post(fake.event('invoice.payment_failed', failed.invoiceId))).statusCode).toBe(
      200,
    );
    let billing = await overview(app, token);
    expect(billing.subscription).toMatchObject({
      status: 'past_due',
      accessUntil: null,
      retryAt: new Date(Math.floor(retryAt / 1000) * 1000).toISOString(),
    });
    expect(billing.authorized).toBe(false);
    expect(billing.portal).toBe(true);

    // The portal opens for the customer, in the user's language, back to /payment.
    const portal = await app.inject({
      method: 'POST',
      url: `${v1}/billing/portal`,
      headers: { ...bearer(token), 'accept-language': 'pt-BR' },
      payload: {},
    });
    expect(portal.json<{ data: { url: string } }>().data.url).toMatch(/billing\.stripe\.test/);
    expect(fake.calls.at(-1)?.params).toMatchObject({
      customer: paid.customerId,
      locale: 'pt-BR',
      return_url: expect.stringMatching(/\/payment\?card=updated$/) as unknown,
    });

    // The card changed there, Stripe retried and tells us: active again.
    const retried = fake.payLatest(paid.subscriptionId, { brand: 'mastercard', last4: '4444' });
    const invoicePaid = fake.event('invoice.paid', retried.invoiceId);
    for (let replay = 0; replay < 3; replay++) {
      expect((await post(invoicePaid)).statusCode).toBe(200);
    }
    billing = await overview(app, token);
    expect(billing.subscription).toMatchObject({ status: 'active', retryAt: null });
    expect(billing.authorized).toBe(true);
    expect(billing.payments).toHaveLength(2);
    expect(billing.payments[0]).toMatchObject({ cardLast4: '4444', status: 'paid' });
  });
});

describe('Stripe events about objects this app does not know', () => {
  const lines: string[] = [];
  const context = useTestApp({ LOG_LEVEL: 'info' }, () => ({
    billingTimers: false,
    paymentProvider: adapter(),
    logStream: { write: (line: string) => lines.push(line) },
  }));

  it('are acknowledged with 200, ignored, and logged by id and type only', async () => {
    const { app } = context;
    const post = (payload: string) =>
      app.inject({
        method: 'POST',
        url: `${v1}/billing/webhooks/stripe`,
        headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload) },
        payload,
      });
    fake.put({
      id: 'sub_test_foreign',
      object: 'subscription',
      customer: 'cus_test_foreign',
      status: 'past_due',
      metadata: {},
      start_date: 1,
      cancel_at_period_end: false,
      ended_at: null,
      items: { object: 'list', data: [] },
    });
    const events = [
      // Stripe no longer has it (404).
      fake.eventAbout('customer.subscription.updated', {
        id: 'sub_test_gone',
        object: 'subscription',
        customer: 'cus_test_gone',
      }),
      fake.eventAbout('customer.subscription.deleted', {
        id: 'sub_test_foreign',
        object: 'subscription',
        customer: 'cus_test_foreign',
      }),
      fake.eventAbout('invoice.paid', {
        id: 'in_test_gone',
        object: 'invoice',
        customer_email: 'stranger@example.com',
        parent: { subscription_details: { subscription: 'sub_test_foreign' } },
      }),
      fake.eventAbout('invoice.payment_failed', {
        id: 'in_test_gone2',
        object: 'invoice',
        parent: { subscription_details: { subscription: 'sub_test_gone' } },
      }),
      // Types billing does not follow.
      fake.eventAbout('customer.created', {
        id: 'cus_test_new',
        object: 'customer',
        email: 'stranger@example.com',
      }),
      fake.eventAbout('payment_method.attached', { id: 'pm_test_1', object: 'payment_method' }),
    ];
    for (const event of events) {
      expect((await post(event)).statusCode).toBe(200);
      // A replay: still 200, still nothing.
      expect((await post(event)).statusCode).toBe(200);
    }
    const ignored = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'billing: event about an unknown object ignored');
    // The four about unknown objects, once each (a replay is known as seen).
    expect(ignored.map((entry) => entry.eventType)).toEqual([
      'customer.subscription.updated',
      'customer.subscription.deleted',
      'invoice.paid',
      'invoice.payment_failed',
    ]);
    for (const entry of ignored) expect(entry.eventId).toMatch(/^evt_test_/);
    const log = lines.join('');
    expect(log).not.toContain('stranger@example.com');
    expect(log).not.toContain('"level":50');
  });
});

describe('two Stripe checkouts opened before paying, both paid (issue 18)', () => {
  const clock = manualClock(new Date());
  const context = useTestApp({}, () => ({
    clock,
    billingTimers: false,
    paymentProvider: adapter(),
  }));

  it('the second payment is refunded at once, its subscription canceled, with a receipt and an e-mail saying why', async () => {
    const { app } = context;
    const token = await registeredToken(app);
    const monthly = await startCheckout(app, token, 'monthly');
    const yearly = await startCheckout(app, token, 'yearly');
    // Stripe cannot refuse the second: each checkout is paid on its own page.
    const first = fake.complete(monthly.sessionId, undefined, Date.now());
    const second = fake.complete(yearly.sessionId, undefined, Date.now() + 1000);
    const post = (payload: string) =>
      app.inject({
        method: 'POST',
        url: `${v1}/billing/webhooks/stripe`,
        headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload) },
        payload,
      });
    expect((await post(fake.event('invoice.paid', first.invoiceId))).statusCode).toBe(200);
    expect((await post(fake.event('invoice.paid', second.invoiceId))).statusCode).toBe(200);

    expect(
      fake.calls.some(
        (call) => call.path === '/v1/refunds' && call.params.payment_intent === second.intentId,
      ),
    ).toBe(true);
    expect(fake.calls.some((call) => call.params.payment_intent === first.intentId)).toBe(false);
    expect(fake.get(second.subscriptionId).status).toBe('canceled');
    expect(fake.get(first.subscriptionId).status).toBe('active');

    const billing = await overview(app, token);
    expect(billing.authorized).toBe(true);
    expect(billing.subscription).toMatchObject({ plan: 'monthly', status: 'active' });
    // Every payment shown is either refundable (the first, for 7 days) or shown refunded.
    expect(billing.payments).toEqual([
      expect.objectContaining({ plan: 'yearly', amountCents: 29_000, status: 'refunded' }),
      expect.objectContaining({ plan: 'monthly', amountCents: 2900, status: 'paid' }),
    ]);
    expect(billing.refund).toMatchObject({ eligible: true, amountCents: 2900 });

    // Stripe's own events about the refund and the cancellation change nothing more.
    expect((await post(fake.event('charge.refunded', second.chargeId))).statusCode).toBe(200);
    expect(
      (await post(fake.event('customer.subscription.deleted', second.subscriptionId))).statusCode,
    ).toBe(200);
    expect((await overview(app, token)).payments.map((payment) => payment.status)).toEqual([
      'refunded',
      'paid',
    ]);

    const mails = await Promise.all(
      (await readMails(context.mailDir, 3)).map((mail) => simpleParser(mail)),
    );
    expect(mails.map((mail) => mail.subject).sort()).toEqual([
      'Recibo de tu suscripción a Tradebot',
      'Recibo de tu suscripción a Tradebot',
      'Te devolvimos un pago repetido',
    ]);
    const why = mails.find((mail) => mail.subject === 'Te devolvimos un pago repetido');
    expect(why?.text).toContain('Cada cuenta tiene una sola suscripción');
    expect(why?.text).toMatch(/USD\s290\.00/);
  });
});
