import type { BillingOverview, CheckoutStatus, PlanId } from '@tradebot/contract';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { simPayEvents } from '../../src/db/schema';
import { signWebhook } from '../../src/payments/simulated/webhook-signature';
import type { Clock } from '../../src/repositories/clock';
import { bearer, login, registeredToken, v1, validRegistration } from './accounts';

/** The simulated provider's webhook secret in tests: the test signs events with it too. */
export const simSecret = 'test-sim-pay-webhook-secret-0123456789';

export const testCards = {
  pays: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  renewalsDeclined: '4000 0000 0000 0341',
} as const;

export async function startCheckout(app: FastifyInstance, who: Who, plan: PlanId) {
  const token = await tokenOf(who);
  const response = await app.inject({
    method: 'POST',
    url: `${v1}/billing/checkout`,
    headers: bearer(token),
    payload: { plan },
  });
  if (response.statusCode !== 200) throw new Error(`checkout failed: ${response.body}`);
  return response.json<{ data: { sessionId: string; url: string } }>().data;
}

/** Submits the simulated checkout page's form, as a browser without JavaScript does. */
export function submitCard(
  app: FastifyInstance,
  url: string,
  card: string,
  overrides: Partial<Record<'name' | 'expiry' | 'cvc', string>> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      name: 'María Gonçalves',
      number: card,
      expiry: '12/34',
      cvc: '123',
      ...overrides,
    }).toString(),
  });
}

export async function overview(app: FastifyInstance, who: Who): Promise<BillingOverview> {
  const token = await tokenOf(who);
  const response = await app.inject({ url: `${v1}/billing`, headers: bearer(token) });
  if (response.statusCode !== 200) throw new Error(`overview failed: ${response.body}`);
  return response.json<{ data: BillingOverview }>().data;
}

export async function checkoutStatus(
  app: FastifyInstance,
  who: Who,
  sessionId: string,
): Promise<CheckoutStatus> {
  const token = await tokenOf(who);
  const response = await app.inject({
    url: `${v1}/billing/checkout/${sessionId}`,
    headers: bearer(token),
  });
  if (response.statusCode !== 200) throw new Error(`status failed: ${response.body}`);
  return response.json<{ data: CheckoutStatus }>().data;
}

export async function billingAction(app: FastifyInstance, who: Who, action: string) {
  const token = await tokenOf(who);
  return app.inject({
    method: 'POST',
    url: `${v1}/billing/${action}`,
    headers: bearer(token),
    payload: {},
  });
}

/** Pays a plan end to end: checkout, the page with a card, the events delivered. */
export async function pay(
  app: FastifyInstance,
  who: Who,
  plan: PlanId,
  card: string = testCards.pays,
) {
  const { sessionId, url } = await startCheckout(app, who, plan);
  const submitted = await submitCard(app, url, card);
  if (submitted.statusCode !== 303) throw new Error(`payment refused: ${submitted.statusCode}`);
  await app.services.billing.runDue();
  return sessionId;
}

/** The events the simulated provider recorded, oldest first (their bodies as it sends them). */
export async function simulatedEvents(app: FastifyInstance) {
  return app.database.db.select().from(simPayEvents).orderBy(asc(simPayEvents.sequence));
}

export async function simulatedEvent(app: FastifyInstance, id: string) {
  const [row] = await app.database.db.select().from(simPayEvents).where(eq(simPayEvents.id, id));
  if (!row) throw new Error(`no event ${id}`);
  return row;
}

/** Posts an event body to our webhook, signed at `timestampSeconds` (a provider's delivery). */
export function postWebhook(
  app: FastifyInstance,
  body: string,
  timestampSeconds: number,
  secret = simSecret,
) {
  return app.inject({
    method: 'POST',
    url: `${v1}/billing/webhooks/simulated`,
    headers: {
      'content-type': 'application/json',
      'tradebot-signature': signWebhook(secret, body, timestampSeconds),
    },
    payload: body,
  });
}

/** A token, or a customer who signs in again when the clock moved past their session. */
export type Who = string | Customer;
const tokenOf = (who: Who) => (typeof who === 'string' ? Promise.resolve(who) : who.token());

/** A registered user whose session outlives a test's clock jumps: it signs in again. */
export interface Customer {
  email: string;
  token(): Promise<string>;
}

let customerCount = 0;

export async function customer(
  app: FastifyInstance,
  clock: Clock,
  overrides: Record<string, unknown> = {},
): Promise<Customer> {
  customerCount += 1;
  const email =
    typeof overrides.email === 'string'
      ? overrides.email
      : `cliente${String(customerCount)}@example.com`;
  let token = await registeredToken(app, email, overrides);
  let signedInAt = clock.now().getTime();
  return {
    email,
    token: async () => {
      if (clock.now().getTime() - signedInAt > 12 * 3_600_000) {
        const answer = await login(app, {
          email,
          password: validRegistration.password,
          rememberMe: true,
        });
        if (answer.statusCode !== 200) throw new Error(`login failed: ${answer.body}`);
        token = answer.json<{ data: { token: string } }>().data.token;
        signedInAt = clock.now().getTime();
      }
      return token;
    },
  };
}
