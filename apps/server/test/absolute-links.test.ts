import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app';
import { bearer, manualClock, v1 } from './helpers/accounts';
import { customer, pay, simSecret, submitCard, testCards } from './helpers/billing';

/**
 * Issue 18, finding 7: the links and redirects we hand out are built from PUBLIC_URL, else
 * from the address we listen on, never from a request's Host or X-Forwarded-Host.
 */
function useListeningApp(env: Record<string, string>) {
  const clock = manualClock(new Date('2026-11-21T12:00:00Z'));
  const context = useTestApp(
    { SIM_PAY_WEBHOOK_SECRET: simSecret, TRUST_PROXY: '1', ...env },
    () => ({
      clock,
      billingTimers: false,
    }),
  );
  beforeEach(async () => {
    await context.app.listen({ port: 0, host: '127.0.0.1' });
  });
  const origin = () => {
    const address = context.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    return `http://127.0.0.1:${String(address.port)}`;
  };
  return { context, clock, origin };
}

const forged = {
  host: 'attacker.test',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
};

function expectNoForeignHost(text: string) {
  expect(text).not.toContain('attacker.test');
  expect(text).not.toContain('evil.example');
}

describe.each([
  ['without PUBLIC_URL (the listening address)', {}, undefined],
  [
    'with PUBLIC_URL',
    { PUBLIC_URL: 'https://app.tradebot.example' },
    'https://app.tradebot.example',
  ],
] as const)('absolute links %s', (_name, env, publicUrl) => {
  const { context, clock, origin } = useListeningApp(env);
  const ours = () => publicUrl ?? origin();

  it('a checkout opened with a forged Host and X-Forwarded-Host links and redirects only to our origin', async () => {
    const { app } = context;
    const user = await customer(app, clock);
    const opened = await app.inject({
      method: 'POST',
      url: `${v1}/billing/checkout`,
      headers: { ...bearer(await user.token()), ...forged },
      payload: { plan: 'monthly' },
    });
    expect(opened.statusCode).toBe(200);
    const { url } = opened.json<{ data: { url: string } }>().data;

    const page = await app.inject({ url, headers: forged });
    expect(page.statusCode).toBe(200);
    expectNoForeignHost(page.body);
    expect(page.body).toContain(`href="${ours()}/payment?checkout=canceled"`);

    const paid = await submitCard(app, url, testCards.pays);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toMatch(new RegExp(`^${ours()}/payment/return\\?session_id=`));

    // After paying, anyone's plain GET of the checkout answers a redirect: to us, only.
    const again = await app.inject({ url, headers: forged });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toMatch(new RegExp(`^${ours()}/payment/return\\?session_id=`));
  });

  it("the customer portal's way back goes to our origin whatever the request says", async () => {
    const { app } = context;
    const user = await customer(app, clock);
    await pay(app, user, 'monthly');
    const portal = await app.inject({
      method: 'POST',
      url: `${v1}/billing/portal`,
      headers: { ...bearer(await user.token()), ...forged },
      payload: {},
    });
    expect(portal.statusCode).toBe(200);
    const { url } = portal.json<{ data: { url: string } }>().data;
    const page = await app.inject({ url, headers: forged });
    expect(page.statusCode).toBe(200);
    expectNoForeignHost(page.body);
    expect(page.body).toContain(`href="${ours()}/profile-config"`);
  });
});
