import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { plans } from '@tradebot/contract';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { promoCodes, simPayEvents } from '../src/db/schema';
import { SimulatedPaymentProvider } from '../src/payments/simulated/simulated-provider';
import { signWebhook } from '../src/payments/simulated/webhook-signature';
import { DrizzleJobClaims } from '../src/repositories/job-claims.repository';
import { PromoCodesRepository } from '../src/repositories/promo-codes.repository';
import { GuaranteeNotEligible } from '../src/services/billing.errors';
import { useTestApp, type TestContext } from './helpers/app';
import { bearer, getSettings, manualClock, readMails, v1 } from './helpers/accounts';
import {
  billingAction,
  checkoutStatus,
  customer,
  type Customer,
  overview,
  pay,
  postWebhook,
  simSecret,
  simulatedEvents,
  startCheckout,
  submitCard,
  testCards,
} from './helpers/billing';

const dayMs = 86_400_000;

async function parsedMails(mailDir: string, atLeast = 1) {
  return Promise.all((await readMails(mailDir, atLeast)).map((mail) => simpleParser(mail)));
}

async function authorized(context: TestContext, who: Customer): Promise<boolean> {
  return (await getSettings(context.app, await who.token())).json<{
    data: { authorized: boolean };
  }>().data.authorized;
}

async function userIdOf(context: TestContext, who: Customer): Promise<string> {
  return (await getSettings(context.app, await who.token())).json<{
    data: { user: { id: string } };
  }>().data.user.id;
}

/**
 * The real app on a clock the test moves (a fresh one per test, from 2026-11-21 12:00 UTC),
 * listening so that the simulated provider can post its events.
 */
function useBillingApp(env: () => Record<string, string> = () => ({})) {
  let clock = manualClock();
  const context = useTestApp(
    () => ({ SIM_PAY_WEBHOOK_SECRET: simSecret, ...env() }),
    () => {
      clock = manualClock(new Date('2026-11-21T12:00:00Z'));
      return { clock, billingTimers: false };
    },
  );
  beforeEach(async () => {
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    await new PromoCodesRepository(context.app.database.db).upsert({
      code: 'MESGRATIS',
      benefit: 'free_month',
      validFrom: new Date('2026-01-01T00:00:00Z'),
    });
  });
  return Object.defineProperty(context, 'clock', { get: () => clock }) as TestContext & {
    readonly clock: ReturnType<typeof manualClock>;
  };
}

/** A new customer of this test's app. */
function newCustomer(
  context: ReturnType<typeof useBillingApp>,
  overrides: Record<string, unknown> = {},
): Promise<Customer> {
  return customer(context.app, context.clock, overrides);
}

describe('paying a plan with the simulated provider', () => {
  const context = useBillingApp();

  it('writes the amount as the buyer’s country does, as the web app does (decision 089)', async () => {
    const { app } = context;
    const user = await newCustomer(context);
    const { url } = await startCheckout(app, user, 'monthly');
    // GeoLite2 addresses (as in e2e/number-locale.e2e.ts); loopback counts as Argentina.
    const amountFrom = async (remoteAddress: string) => {
      const page = await app.inject({ url, remoteAddress });
      expect(page.statusCode).toBe(200);
      return /<p class="amount">([^<]+)</.exec(page.body)?.[1]?.replace(/\s/g, ' ');
    };
    expect(await amountFrom('181.0.0.1')).toBe('US$ 29,00 ');
    expect(await amountFrom('190.24.0.1')).toBe('US$ 29,00 ');
    expect(await amountFrom('187.188.0.1')).toBe('USD 29.00 ');
    expect(await amountFrom('127.0.0.1')).toBe('US$ 29,00 ');
    const refused = await app.inject({
      method: 'POST',
      url,
      remoteAddress: '187.188.0.1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        name: 'Ana',
        number: testCards.declined,
        expiry: '12/34',
        cvc: '123',
      }).toString(),
    });
    expect(refused.statusCode).toBe(402);
    expect(refused.body.replace(/\s/g, ' ')).toContain('Pagar USD 29.00');
  });

  it('a declined card is refused, 4242 pays; access comes from the signed event, not the redirect', async () => {
    const { app } = context;
    const user = await newCustomer(context);
    expect(await authorized(context, user)).toBe(false);
    const { sessionId, url } = await startCheckout(app, user, 'monthly');

    const page = await app.inject({ url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const field of ['cc-name', 'cc-number', 'cc-exp', 'cc-csc']) {
      expect(page.body).toContain(`autocomplete="${field}"`);
    }
    // One script, from our origin (decision 156): nothing inline.
    expect(page.body).not.toMatch(/<script(?! src="\/sim-pay\/checkout\.js")|style=/);
    const script = await app.inject({ url: '/sim-pay/checkout.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    expect(page.body).toContain('4242 4242 4242 4242');
    expect(page.body).toContain('4000 0000 0000 0002');

    const declined = await submitCard(app, url, testCards.declined);
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Tu tarjeta fue rechazada');
    // What was typed is kept (decision 156), but not a number that may be a real card.
    expect(declined.body).toContain('value="4000 0000 0000 0002"');
    const notTest = await submitCard(app, url, '5555 5555 5555 4444');
    expect(notTest.statusCode).toBe(422);
    expect(notTest.body).toContain('solo acepta las tarjetas de prueba');
    expect(notTest.body).not.toContain('5555 5555');
    const mistyped = await submitCard(app, url, '4242 4242 4242 4241', { expiry: '1/2' });
    expect(mistyped.statusCode).toBe(422);
    expect(mistyped.body).toContain('value="4242 4242 4242 4241"');
    expect(mistyped.body).toContain('value="1/2"');

    const paid = await submitCard(app, url, testCards.pays);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toMatch(new RegExp(`/payment/return\\?session_id=${sessionId}$`));
    // The browser is back, but no event has been delivered: nothing is granted yet.
    expect(await checkoutStatus(app, user, sessionId)).toEqual({
      state: 'pending',
      authorized: false,
    });
    expect(await authorized(context, user)).toBe(false);

    await app.services.billing.runDue();
    expect(await checkoutStatus(app, user, sessionId)).toEqual({
      state: 'paid',
      authorized: true,
    });
    expect(await authorized(context, user)).toBe(true);

    const billing = await overview(app, user);
    expect(billing.subscription).toMatchObject({
      plan: 'monthly',
      status: 'active',
      freeMonth: false,
      cancelAtPeriodEnd: false,
      currentPeriodEnd: '2026-12-21T12:00:00.000Z',
      nextChargeAt: '2026-12-21T12:00:00.000Z',
      nextChargeCents: plans.monthly.priceCents,
    });
    expect(billing.payments).toEqual([
      expect.objectContaining({
        plan: 'monthly',
        amountCents: 2900,
        currency: 'USD',
        cardBrand: 'visa',
        cardLast4: '4242',
        status: 'paid',
      }),
    ]);
    expect(billing.refund).toEqual({
      eligible: true,
      until: '2026-11-28T12:00:00.000Z',
      amountCents: 2900,
    });
    expect(billing.gift).toBeNull();

    const [receipt] = await parsedMails(context.mailDir);
    expect(receipt?.subject).toBe('Recibo de tu suscripción a Tradebot');
    expect(receipt?.text).toContain('Visa •••• 4242');
    expect(receipt?.text).toContain(
      'puedes pedir el reembolso desde tu perfil hasta el 28 de noviembre de 2026',
    );

    // Never a card number, anywhere we store.
    const dump = await app.database.db.execute(
      sql`select row_to_json(t)::text as row from (select * from payments) t
          union all select row_to_json(t)::text from (select * from sim_pay_subscriptions) t
          union all select row_to_json(t)::text from (select * from sim_pay_charges) t
          union all select row_to_json(t)::text from (select * from sim_pay_checkouts) t`,
    );
    expect(JSON.stringify(dump)).not.toMatch(/4242424242424242|4242 4242 4242 4242/);

    // A second checkout while subscribed is refused.
    const again = await app.inject({
      method: 'POST',
      url: `${v1}/billing/checkout`,
      headers: bearer(await user.token()),
      payload: { plan: 'yearly' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toContain('Ya tienes una suscripción');
  });

  it('refuses bad input with a localized message', async () => {
    const { app } = context;
    const user = await newCustomer(context);
    const bad = await app.inject({
      method: 'POST',
      url: `${v1}/billing/checkout`,
      headers: { ...bearer(await user.token()), 'accept-language': 'pt' },
      payload: { plan: 'weekly' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ errors: Record<string, string[]> }>().errors.plan).toEqual([
      'Valor inválido',
    ]);
    const unknown = await app.inject({
      url: `${v1}/billing/checkout/cs_sim_nothere`,
      headers: bearer(await user.token()),
    });
    expect(unknown.statusCode).toBe(404);
    const anonymous = await app.inject({ url: `${v1}/billing` });
    expect(anonymous.statusCode).toBe(401);
    // Another user's checkout is not found for this one.
    const { sessionId } = await startCheckout(app, user, 'monthly');
    const other = await newCustomer(context);
    expect(
      (
        await app.inject({
          url: `${v1}/billing/checkout/${sessionId}`,
          headers: bearer(await other.token()),
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('webhooks are verified and applied once', () => {
  const context = useBillingApp();

  it('refuses a bad signature and a stale timestamp', async () => {
    const { app, clock } = context;
    const body = JSON.stringify({
      id: 'evt_sim_x',
      type: 'invoice.paid',
      data: { object: { id: 'ch_sim_x', subscription: 'sub_sim_x' } },
    });
    const now = Math.floor(clock.now().getTime() / 1000);
    const wrongSecret = await postWebhook(app, body, now, 'another-secret-0123456789abcdef');
    expect(wrongSecret.statusCode).toBe(400);
    expect(wrongSecret.json<{ message: string }>().message).toBe(
      'Firma del evento inválida o vencida.',
    );
    expect((await postWebhook(app, body, now - 301)).statusCode).toBe(400);
    expect((await postWebhook(app, body, now + 301)).statusCode).toBe(400);
    const unsigned = await app.inject({
      method: 'POST',
      url: `${v1}/billing/webhooks/simulated`,
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(unsigned.statusCode).toBe(400);
    const tampered = await app.inject({
      method: 'POST',
      url: `${v1}/billing/webhooks/simulated`,
      headers: {
        'content-type': 'application/json',
        'tradebot-signature': signWebhook(simSecret, body, now),
      },
      payload: body.replace('ch_sim_x', 'ch_sim_y'),
    });
    expect(tampered.statusCode).toBe(400);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `${v1}/billing/webhooks/paypal`,
          payload: body,
          headers: { 'content-type': 'application/json' },
        })
      ).statusCode,
    ).toBe(422);
  });

  it('ten replays of each event, and events out of order, have one effect', async () => {
    const { app, clock } = context;
    const user = await newCustomer(context);
    await pay(app, user, 'yearly');
    await billingAction(app, user, 'cancel');
    await app.services.billing.runDue();
    const events = await simulatedEvents(app);
    expect(events.map((event) => event.type)).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
      'customer.subscription.updated',
    ]);
    expect(events.every((event) => event.deliveredAt !== null)).toBe(true);

    const now = Math.floor(clock.now().getTime() / 1000);
    // Newest first, ten times each: the creation arrives after the cancellation.
    for (const event of [...events].reverse()) {
      for (let replay = 0; replay < 10; replay++) {
        const response = await postWebhook(app, JSON.stringify(event.payload), now);
        expect(response.statusCode).toBe(200);
      }
    }
    // The same events with new ids (a provider resending them as new): still one state.
    for (const event of [...events].reverse()) {
      const payload = { ...event.payload, id: `${String(event.payload.id)}_again` };
      expect((await postWebhook(app, JSON.stringify(payload), now)).statusCode).toBe(200);
    }

    const billing = await overview(app, user);
    expect(billing.payments).toHaveLength(1);
    expect(billing.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(billing.gift).toEqual({ cents: 10_000, status: 'owed' });
    const rows = await app.database.db.execute(sql`select count(*)::int as n from subscriptions`);
    expect(JSON.stringify(rows)).toContain('"n":1');
    expect(await readMails(context.mailDir, 2)).toHaveLength(1);
  });
});

describe("the simulated provider's retries", () => {
  let failuresLeft = 0;
  let requests = 0;
  let target = '';
  const proxy = http.createServer((request, response) => {
    requests += 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        response.writeHead(503).end();
        return;
      }
      const forwarded = http.request(
        `${target}${request.url ?? ''}`,
        { method: 'POST', headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.end(Buffer.concat(chunks));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
  });
  const context = useBillingApp(() => ({
    SIM_PAY_WEBHOOK_URL: `http://127.0.0.1:${String((proxy.address() as AddressInfo).port)}${v1}/billing/webhooks/simulated`,
  }));

  it('retries with backoff, durably, until our endpoint answers', async () => {
    const { app, clock } = context;
    const address = app.server.address() as AddressInfo;
    target = `http://127.0.0.1:${String(address.port)}`;
    failuresLeft = 2;
    requests = 0;
    const user = await newCustomer(context);
    const { url } = await startCheckout(app, user, 'monthly');
    expect((await submitCard(app, url, testCards.pays)).statusCode).toBe(303);

    // One try per event per run: the first two fail, the payment's own event goes through.
    await app.services.billing.runDue();
    const first = (await simulatedEvents(app))[0];
    expect(first?.attempts).toBe(1);
    expect(first?.lastStatus).toBe(503);
    expect(first?.deliveredAt).toBeNull();
    expect(await authorized(context, user)).toBe(true);

    // The retries wait: 1 s after the first failure.
    await app.services.billing.runDue();
    expect((await simulatedEvents(app)).filter((event) => event.deliveredAt === null)).toHaveLength(
      2,
    );
    clock.advance(1000);
    await app.services.billing.runDue();
    const events = await simulatedEvents(app);
    expect(events.every((event) => event.deliveredAt !== null)).toBe(true);
    expect(events[0]?.attempts).toBe(2);
    expect(requests).toBe(events.length + 2);
  });

  it('the outbox survives a restart: a new provider over the same books delivers it', async () => {
    const { app, clock } = context;
    target = `http://127.0.0.1:${String((app.server.address() as AddressInfo).port)}`;
    failuresLeft = 1000;
    const user = await newCustomer(context);
    const { url } = await startCheckout(app, user, 'monthly');
    await submitCard(app, url, testCards.pays);
    await app.services.billing.runDue();
    expect(await authorized(context, user)).toBe(false);
    const pending = await app.database.db
      .select()
      .from(simPayEvents)
      .where(sql`${simPayEvents.deliveredAt} is null`);
    expect(pending).toHaveLength(3);

    failuresLeft = 0;
    const restarted = new SimulatedPaymentProvider({
      db: app.database.db,
      clock,
      secret: simSecret,
      webhookUrl: () =>
        `http://127.0.0.1:${String((proxy.address() as AddressInfo).port)}${v1}/billing/webhooks/simulated`,
      autoDeliver: false,
      claims: new DrizzleJobClaims(app.database.db, 'restarted'),
      onError: (error) => {
        throw error;
      },
    });
    clock.advance(1000);
    await restarted.deliverDue();
    expect(await authorized(context, user)).toBe(true);
  });
});

describe('refunds and the 30-day guarantee', () => {
  const context = useBillingApp();

  it('within 7 days of the first payment the user refunds it and access ends', async () => {
    const { app, clock } = context;
    const user = await newCustomer(context);
    await pay(app, user, 'monthly');
    clock.advance(6 * dayMs + 23 * 3_600_000);
    const refunded = await billingAction(app, user, 'refund');
    expect(refunded.statusCode).toBe(200);
    const billing = refunded.json<{ data: Awaited<ReturnType<typeof overview>> }>().data;
    expect(billing.subscription?.status).toBe('refunded');
    expect(billing.payments[0]?.status).toBe('refunded');
    expect(billing.refund.eligible).toBe(false);
    expect(billing.authorized).toBe(false);
    expect(await authorized(context, user)).toBe(false);
    // The provider's own events about it change nothing more.
    await app.services.billing.runDue();
    expect((await overview(app, user)).subscription?.status).toBe('refunded');
    const mails = await parsedMails(context.mailDir, 2);
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Recibo de tu suscripción a Tradebot',
      'Te devolvimos el pago de tu suscripción',
    ]);
    // A second refund is refused.
    expect((await billingAction(app, user, 'refund')).statusCode).toBe(409);
  });

  it('after 7 days the refund is refused; the guarantee holds until day 30', async () => {
    const { app, clock } = context;
    const user = await newCustomer(context);
    await pay(app, user, 'monthly');
    clock.advance(7 * dayMs + 1000);
    const late = await billingAction(app, user, 'refund');
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toBe(
      'El reembolso está disponible solo durante los 7 días siguientes a tu primer pago.',
    );
    expect(await authorized(context, user)).toBe(true);

    const userId = await userIdOf(context, user);
    const eligibility = await app.services.billing.guaranteeEligibility(userId);
    expect(eligibility).toEqual({ eligible: true, until: new Date('2026-12-21T12:00:00.000Z') });
    clock.advance(23 * dayMs);
    expect((await app.services.billing.guaranteeEligibility(userId)).eligible).toBe(false);
    await expect(app.services.billing.honourGuarantee(userId)).rejects.toBeInstanceOf(
      GuaranteeNotEligible,
    );
  });

  it('support honours the guarantee within 30 days: refunded, access ends', async () => {
    const { app, clock } = context;
    const user = await newCustomer(context);
    await pay(app, user, 'yearly');
    clock.advance(20 * dayMs);
    const userId = await userIdOf(context, user);
    await app.services.billing.honourGuarantee(userId);
    const billing = await overview(app, user);
    expect(billing.subscription?.status).toBe('refunded');
    expect(billing.gift).toEqual({ cents: 10_000, status: 'canceled' });
    expect(await authorized(context, user)).toBe(false);
  });
});

describe('renewals on the driven clock', () => {
  const context = useBillingApp();

  it('renews each month, with a receipt each time', async () => {
    const { app, clock } = context;
    const user = await newCustomer(context);
    await pay(app, user, 'monthly');
    clock.advance(30 * dayMs + 60_000);
    await app.services.billing.runDue();
    let billing = await overview(app, user);
    expect(billing.payments).toHaveLength(2);
    expect(billing.subscription).toMatchObject({
      status: 'active',
      currentPeriodEnd: '2027-01-21T12:00:00.000Z',
    });
    // Three months later at once: it catches up, one charge per period.
    clock.advance(92 * dayMs);
    await app.services.billing.runDue();
    billing = await overview(app, user);
    expect(billing.payments).toHaveLength(5);
    expect(billing.refund.eligible).toBe(false);
    expect(await authorized(context, user)).toBe(true);
    expect(await readMails(context.mailDir, 5)).toHaveLength(5);
  });

  it('a declined renewal is past_due without access, retried daily, then cancels', async () => {
    const { app, clock } = context;
    const user = await newCustomer(context);
    await pay(app, user, 'monthly', testCards.renewalsDeclined);
    clock.advance(30 * dayMs + 60_000);
    await app.services.billing.runDue();
    let billing = await overview(app, user);
    expect(billing.subscription).toMatchObject({
      status: 'past_due',
      accessUntil: null,
      nextChargeAt: null,
      // The decline was at the period's end (2026-12-21 12:00); the retry is a day later.
      retryAt: '2026-12-22T12:00:00.000Z',
    });
    expect(billing.portal).toBe(true);
    // The robot opens nothing new until the card pays.
    expect(await authorized(context, user)).toBe(false);
    // A second subscription is not opened meanwhile: the card is changed instead.
    const again = await app.inject({
      method: 'POST',
      url: `${v1}/billing/checkout`,
      headers: bearer(await user.token()),
      payload: { plan: 'monthly' },
    });
    expect(again.statusCode).toBe(409);
    clock.advance(dayMs);
    await app.services.billing.runDue();
    billing = await overview(app, user);
    expect(billing.subscription?.status).toBe('past_due');
    expect(billing.subscription?.retryAt).toBe('2026-12-23T12:00:00.000Z');
    clock.advance(dayMs);
    await app.services.billing.runDue();
    billing = await overview(app, user);
    expect(billing.subscription).toMatchObject({ status: 'canceled', retryAt: null });
    expect(billing.payments).toHaveLength(1);
    expect(billing.portal).toBe(false);
    expect(await authorized(context, user)).toBe(false);
    // Paying again is possible once it ended.
    await pay(app, user, 'monthly');
    expect(await authorized(context, user)).toBe(true);
  });

  it('a past_due user changes the card on the provider’s page: the charge is retried and the webhook makes it active', async () => {
    const { app, clock } = context;
    const user = await newCustomer(context, { email: 'tarjeta@example.com' });
    await pay(app, user, 'monthly', testCards.renewalsDeclined);
    clock.advance(30 * dayMs + 60_000);
    await app.services.billing.runDue();
    expect((await overview(app, user)).subscription?.status).toBe('past_due');
    expect(await authorized(context, user)).toBe(false);

    const portal = await app.inject({
      method: 'POST',
      url: `${v1}/billing/portal`,
      headers: { ...bearer(await user.token()), 'accept-language': 'pt-BR' },
      payload: {},
    });
    expect(portal.statusCode).toBe(200);
    const url = portal.json<{ data: { url: string } }>().data.url;
    expect(url).toMatch(/^\/sim-pay\/card\?session=[\w-]+\.[\w-]{43}$/);

    const page = await app.inject({ url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('lang="pt"');
    expect(page.body).toContain('Visa •••• 0341');
    expect(page.body).toContain('Salvar e pagar US$');
    for (const autocomplete of ['cc-name', 'cc-number', 'cc-exp', 'cc-csc']) {
      expect(page.body).toContain(`autocomplete="${autocomplete}"`);
    }
    // A forged or altered link shows nothing.
    const [payload] = url.slice('/sim-pay/card?session='.length).split('.');
    expect(
      (await app.inject({ url: `/sim-pay/card?session=${payload ?? ''}.${'A'.repeat(43)}` }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await submitCard(
          app,
          `/sim-pay/card?session=${payload ?? ''}.${'A'.repeat(43)}`,
          testCards.pays,
        )
      ).statusCode,
    ).toBe(404);

    // A declined card: the page again, nothing charged.
    const declined = await submitCard(app, url, testCards.declined);
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Seu cartão foi recusado');
    // The card that declines every charge after the first declines this one too.
    expect((await submitCard(app, url, testCards.renewalsDeclined)).statusCode).toBe(402);
    await app.services.billing.runDue();
    expect((await overview(app, user)).subscription?.status).toBe('past_due');

    // The browser's return proves nothing: the state changes only when the event arrives.
    const paid = await submitCard(app, url, testCards.pays);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toMatch(/\/payment\?card=updated$/);
    expect((await overview(app, user)).subscription?.status).toBe('past_due');
    await app.services.billing.runDue();
    const billing = await overview(app, user);
    expect(billing.subscription).toMatchObject({
      status: 'active',
      retryAt: null,
      currentPeriodEnd: '2027-01-21T12:00:00.000Z',
      nextChargeAt: '2027-01-21T12:00:00.000Z',
    });
    expect(billing.payments).toHaveLength(2);
    expect(billing.payments[0]).toMatchObject({ cardLast4: '4242', status: 'paid' });
    expect(await authorized(context, user)).toBe(true);
    // The next renewal is charged to the new card.
    clock.advance(31 * dayMs);
    await app.services.billing.runDue();
    expect((await overview(app, user)).payments).toHaveLength(3);
    expect(await authorized(context, user)).toBe(true);
  });

  it('cancel at period end: access until then, no further charge; resume undoes it', async () => {
    const { app, clock } = context;
    const user = await newCustomer(context);
    await pay(app, user, 'monthly');
    const canceled = await billingAction(app, user, 'cancel');
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json<{ data: { subscription: unknown } }>().data.subscription).toMatchObject({
      cancelAtPeriodEnd: true,
      nextChargeAt: null,
    });
    const resumed = await billingAction(app, user, 'resume');
    expect(resumed.json<{ data: { subscription: unknown } }>().data.subscription).toMatchObject({
      cancelAtPeriodEnd: false,
      nextChargeAt: '2026-12-21T12:00:00.000Z',
    });
    await billingAction(app, user, 'cancel');
    clock.advance(29 * dayMs);
    await app.services.billing.runDue();
    expect(await authorized(context, user)).toBe(true);
    clock.advance(dayMs + 60_000);
    await app.services.billing.runDue();
    const billing = await overview(app, user);
    expect(billing.subscription?.status).toBe('canceled');
    expect(billing.payments).toHaveLength(1);
    expect(await authorized(context, user)).toBe(false);
    expect((await billingAction(app, user, 'cancel')).statusCode).toBe(409);
  });
});

describe('the free month', () => {
  const context = useBillingApp();

  it('MESGRATIS at registration: authorized at once without a card, for 30 days', async () => {
    const { app, clock } = context;
    const user = await newCustomer(context, { promocode: 'mesgratis' });
    expect(await authorized(context, user)).toBe(true);
    const billing = await overview(app, user);
    expect(billing.subscription).toMatchObject({
      freeMonth: true,
      status: 'trialing',
      plan: null,
      accessUntil: '2026-12-21T12:00:00.000Z',
      nextChargeAt: null,
    });
    expect(billing.freeMonthUsed).toBe(true);
    clock.advance(30 * dayMs - 1000);
    await app.services.billing.runDue();
    expect(await authorized(context, user)).toBe(true);
    clock.advance(2000);
    await app.services.billing.runDue();
    expect(await authorized(context, user)).toBe(false);
    expect((await overview(app, user)).subscription).toMatchObject({
      freeMonth: true,
      status: 'canceled',
      accessUntil: null,
    });
  });

  it('later through update-promocode; once per user; never after paying', async () => {
    const { app } = context;
    const user = await newCustomer(context);
    const update = async (promocode: string, who: Customer = user) =>
      app.inject({
        method: 'PUT',
        url: `${v1}/update-promocode`,
        headers: bearer(await who.token()),
        payload: { promocode, language: 'es' },
      });
    const applied = await update('MESGRATIS');
    expect(applied.json()).toEqual({
      data: {
        promocode: 'MESGRATIS',
        benefit: 'free_month',
        trialEndsAt: '2026-12-21T12:00:00.000Z',
      },
    });
    expect(await authorized(context, user)).toBe(true);
    await new PromoCodesRepository(app.database.db).upsert({
      code: 'OTROMES',
      benefit: 'free_month',
      validFrom: new Date('2026-01-01T00:00:00Z'),
    });
    const second = await update('OTROMES');
    expect(second.statusCode).toBe(409);
    expect(second.json<{ errors: Record<string, string[]> }>().errors.promocode).toEqual([
      'El mes gratis es para cuentas que todavía no tuvieron una suscripción ni un mes gratis.',
    ]);

    const payer = await newCustomer(context);
    await pay(app, payer, 'monthly');
    expect((await update('MESGRATIS', payer)).statusCode).toBe(409);
    const [promo] = await app.database.db
      .select()
      .from(promoCodes)
      .where(eq(promoCodes.code, 'OTROMES'));
    expect(promo?.uses).toBe(0);
  });

  it('paying during the free month keeps its days: the first charge comes when it ends', async () => {
    const { app, clock } = context;
    const user = await newCustomer(context, { promocode: 'MESGRATIS' });
    clock.advance(10 * dayMs);
    const { url } = await startCheckout(app, user, 'monthly');
    expect((await app.inject({ url })).body).toContain('Hoy no se cobra nada');
    expect((await submitCard(app, url, testCards.pays)).statusCode).toBe(303);
    await app.services.billing.runDue();
    let billing = await overview(app, user);
    expect(billing.subscription).toMatchObject({
      freeMonth: false,
      status: 'trialing',
      plan: 'monthly',
      nextChargeAt: '2026-12-21T12:00:00.000Z',
    });
    expect(billing.payments).toEqual([]);
    clock.advance(20 * dayMs + 1000);
    await app.services.billing.runDue();
    billing = await overview(app, user);
    expect(billing.subscription).toMatchObject({ status: 'active' });
    expect(billing.payments).toHaveLength(1);
    expect(await authorized(context, user)).toBe(true);
  });
});

describe('one subscription per user, held where the money is taken (issue 18)', () => {
  const context = useBillingApp();

  it('two checkouts opened before paying: the second is refused uncharged and closed', async () => {
    const { app } = context;
    const user = await newCustomer(context);
    const monthly = await startCheckout(app, user, 'monthly');
    const yearly = await startCheckout(app, user, 'yearly');

    expect((await submitCard(app, monthly.url, testCards.pays)).statusCode).toBe(303);
    const second = await submitCard(app, yearly.url, testCards.pays);
    expect(second.statusCode).toBe(409);
    expect(second.body).toContain('Ya tienes una suscripción');
    expect(second.body).toContain('no cobramos este pago');
    // The refused checkout is closed: it cannot be paid later either.
    expect((await app.inject({ url: yearly.url })).statusCode).toBe(404);
    expect((await submitCard(app, yearly.url, testCards.pays)).statusCode).toBe(404);

    await app.services.billing.runDue();
    const billing = await overview(app, user);
    expect(billing.subscription).toMatchObject({ plan: 'monthly', status: 'active' });
    expect(billing.payments).toHaveLength(1);
    expect(billing.payments[0]).toMatchObject({ plan: 'monthly', status: 'paid' });
    expect(billing.refund.eligible).toBe(true);
    expect(
      (await simulatedEvents(app)).filter((event) => event.type === 'invoice.paid'),
    ).toHaveLength(1);
  });

  it('two checkouts paid at the same moment: one is charged', async () => {
    const { app } = context;
    const user = await newCustomer(context, { language: 'pt' });
    const monthly = await startCheckout(app, user, 'monthly');
    const yearly = await startCheckout(app, user, 'yearly');
    const answers = await Promise.all([
      submitCard(app, monthly.url, testCards.pays),
      submitCard(app, yearly.url, testCards.pays),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([303, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    expect(refused?.body).toContain('Você já tem uma assinatura');
    await app.services.billing.runDue();
    expect((await overview(app, user)).payments).toHaveLength(1);
  });

  it('after a refund the user may subscribe again', async () => {
    const { app } = context;
    const user = await newCustomer(context);
    await pay(app, user, 'monthly');
    expect((await billingAction(app, user, 'refund')).statusCode).toBe(200);
    await pay(app, user, 'yearly');
    const billing = await overview(app, user);
    expect(billing.subscription).toMatchObject({ plan: 'yearly', status: 'active' });
    expect(billing.payments.map((payment) => payment.status)).toEqual(['paid', 'refunded']);
  });
});
