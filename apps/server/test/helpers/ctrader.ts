import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import {
  EURUSD,
  FAKE_APP,
  type FakeCTraderOAuthServer,
  type FakeCTraderServer,
} from '@tradebot/robot/ctrader/fake';
import { userSettings } from '../../src/db/schema';
import { effectiveRobotSettings } from '../../src/domain/robot-settings';
import { allCategoriesEnabled } from '../../src/repositories/users.repository';
import { v1 } from './accounts';
import { paidUser } from './linking';
import { robotOf, type RobotTestContext } from './trading';

/** Where the fake OAuth sends the browser back (never opened: tests follow it by hand). */
export const ctraderRedirectUri = 'http://127.0.0.1:9/link-account/ctrader/callback';

/** The app's cTrader settings on the fake Open API and OAuth servers (plain TCP, a fresh key). */
export function ctraderEnv(
  ctrader: FakeCTraderServer,
  oauth: FakeCTraderOAuthServer,
): Record<string, string> {
  return {
    PLATFORM_CREDENTIALS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    CTRADER_CLIENT_ID: FAKE_APP.clientId,
    CTRADER_CLIENT_SECRET: FAKE_APP.clientSecret,
    CTRADER_AUTH_URL: oauth.authorizeUrl,
    CTRADER_TOKEN_URL: oauth.tokenUrl,
    CTRADER_REDIRECT_URI: ctraderRedirectUri,
    CTRADER_HOST: '127.0.0.1',
    CTRADER_PORT: String(ctrader.port),
    CTRADER_TLS: 'false',
  };
}

/** Links the user to the fake's account through OAuth2: authorize, callback, pick. */
export async function linkCTraderAccount(
  app: FastifyInstance,
  headers: Record<string, string>,
  ctidTraderAccountId: number,
): Promise<void> {
  const started = await app.inject({
    method: 'POST',
    url: `${v1}/ctrader/authorize`,
    headers,
    payload: {},
  });
  expect(started.statusCode).toBe(200);
  const { authorizeUrl } = started.json<{ data: { authorizeUrl: string } }>().data;
  const granted = await fetch(authorizeUrl, { redirect: 'manual' });
  const back = new URL(granted.headers.get('location') ?? '');
  const returned = await app.inject({
    method: 'POST',
    url: `${v1}/ctrader/callback`,
    headers,
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(returned.statusCode).toBe(200);
  const linked = await app.inject({
    method: 'POST',
    url: `${v1}/ctrader/link`,
    headers,
    payload: { ctidTraderAccountId },
  });
  expect(linked.statusCode).toBe(201);
}

/**
 * Moves the fake's EURUSD from `base` a step at a time until `done`; false after `max` steps.
 */
export async function moveEurusdUntil(
  ctrader: FakeCTraderServer,
  base: number,
  done: () => Promise<boolean>,
  max = 200,
): Promise<boolean> {
  for (let step = 0; step < max; step++) {
    if (await done()) return true;
    const bid = base + (step % 5) * 0.00001;
    ctrader.setPrice(EURUSD.symbolId, bid, bid + 0.00012);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return done();
}

/**
 * A paid user linked to the fake's account `ctidTraderAccountId` through OAuth, robot on in
 * every category, its browser listening to the real-time channel.
 */
export async function linkedCTraderTrader(
  context: RobotTestContext,
  email: string,
  ctidTraderAccountId: number,
) {
  const { app, publisher } = context;
  const { userId, headers } = await paidUser(app, email);
  await app.database.db
    .update(userSettings)
    .set({ botOn: true, categoriesEnabled: allCategoriesEnabled })
    .where(eq(userSettings.userId, userId));
  // Linking tells the user cache, so the API reads these settings.
  await linkCTraderAccount(app, headers, ctidTraderAccountId);
  const [settings] = await app.database.db
    .select()
    .from(userSettings)
    .where(eq(userSettings.userId, userId));
  if (!settings) throw new Error('no settings');
  const robot = robotOf(app);
  publisher.listening.add(userId);
  robot.watch(userId);
  await robot.applySettings(userId, effectiveRobotSettings(settings));
  return { userId, headers, robot };
}
