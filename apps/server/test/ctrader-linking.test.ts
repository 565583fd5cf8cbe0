import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ACCOUNT,
  FAKE_APP,
  FakeCTraderOAuthServer,
  FakeCTraderServer,
  fakeOptions,
  type FakeAccount,
} from '@tradebot/robot/ctrader/fake';
import {
  ctraderAuthorizations,
  jobClaims,
  platformUnlinks,
  tradingPlatformLinks,
} from '../src/db/schema';
import { listCTraderAccounts } from '../src/platforms/ctrader/ctrader-accounts';
import { getSettings, manualClock, v1, validRegistration } from './helpers/accounts';
import { replica, useTestApp } from './helpers/app';
import { linkAccount, paidUser } from './helpers/linking';
import { robotOf, runMarket, trader, useRobotApp } from './helpers/trading';

/** A live account under the same cTrader ID: listed, not pickable on a demo server. */
const LIVE_ACCOUNT: FakeAccount = {
  ...DEMO_ACCOUNT,
  ctidTraderAccountId: 4_400_202,
  isLive: true,
  traderLogin: 7_001_000,
  leverageInCents: 3_000,
};
const redirectUri = 'http://127.0.0.1:9/link-account/ctrader/callback';
const day = 24 * 60 * 60_000;

let ctrader: FakeCTraderServer;
let oauth: FakeCTraderOAuthServer;

beforeAll(async () => {
  ctrader = new FakeCTraderServer(fakeOptions({ accounts: [DEMO_ACCOUNT, LIVE_ACCOUNT] }));
  await ctrader.listen();
  oauth = new FakeCTraderOAuthServer({
    ...FAKE_APP,
    accessToken: DEMO_ACCOUNT.accessToken,
    onTokenReplaced: (previous, next) => {
      ctrader.replaceToken(previous, next);
    },
  });
  await oauth.listen();
});
afterAll(async () => {
  await oauth.close();
  await ctrader.close();
});

/** Both processes of the refresh race seal and open with the same key (decision 049). */
const sealingKey = `k1:${randomBytes(32).toString('base64')}`;
const ctraderEnv = () => ({
  PLATFORM_CREDENTIALS_KEYS: sealingKey,
  CTRADER_CLIENT_ID: FAKE_APP.clientId,
  CTRADER_CLIENT_SECRET: FAKE_APP.clientSecret,
  CTRADER_AUTH_URL: oauth.authorizeUrl,
  CTRADER_TOKEN_URL: oauth.tokenUrl,
  CTRADER_REDIRECT_URI: redirectUri,
  CTRADER_HOST: '127.0.0.1',
  CTRADER_PORT: String(ctrader.port),
  CTRADER_TLS: 'false',
});

const authorize = (app: FastifyInstance, headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: `${v1}/ctrader/authorize`, headers, payload: {} });
const callback = (
  app: FastifyInstance,
  headers: Record<string, string>,
  payload: { code: string; state: string },
) => app.inject({ method: 'POST', url: `${v1}/ctrader/callback`, headers, payload });
const pick = (app: FastifyInstance, headers: Record<string, string>, id: number) =>
  app.inject({
    method: 'POST',
    url: `${v1}/ctrader/link`,
    headers,
    payload: { ctidTraderAccountId: id },
  });
const unlink = (
  app: FastifyInstance,
  headers: Record<string, string>,
  payload: { password: string; closeOperations: boolean },
) => app.inject({ method: 'POST', url: `${v1}/unlink-account`, headers, payload });

/** The browser at cTrader ID's granting page: approved, redirected back with code and state. */
async function grantingPage(authorizeUrl: string): Promise<{ code: string; state: string }> {
  const response = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
  return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' };
}

async function authorizeAndReturn(app: FastifyInstance, headers: Record<string, string>) {
  const started = await authorize(app, headers);
  expect(started.statusCode).toBe(200);
  const { authorizeUrl } = started.json<{ data: { authorizeUrl: string } }>().data;
  return { authorizeUrl, ...(await grantingPage(authorizeUrl)) };
}

async function linkDemo(app: FastifyInstance, headers: Record<string, string>) {
  const back = await authorizeAndReturn(app, headers);
  expect((await callback(app, headers, back)).statusCode).toBe(200);
  const linked = await pick(app, headers, DEMO_ACCOUNT.ctidTraderAccountId);
  expect(linked.statusCode).toBe(201);
}

describe('cTrader not configured', () => {
  const context = useTestApp();

  it('says so, and refuses to start an authorisation with a plain explanation', async () => {
    const { app } = context;
    const { headers } = await paidUser(app, 'sin-ctrader@example.com');
    const status = await app.inject({ method: 'GET', url: `${v1}/ctrader`, headers });
    expect(status.json()).toEqual({
      data: { configured: false, environment: 'demo', accounts: null },
    });
    const refused = await authorize(app, headers);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({
      message: 'La vinculación con brókers cTrader no está habilitada en este servidor todavía.',
    });
  });
});

describe('linking a cTrader account through OAuth2, against the fake Spotware', () => {
  const clock = manualClock(new Date());
  const context = useTestApp(ctraderEnv, () => ({ clock, ctraderRefreshTimers: false }));

  it('sends the user to the granting page with our state, exchanges the code, lists the accounts and links the one picked; the tokens are sealed', async () => {
    const { app } = context;
    const { token, userId, headers } = await paidUser(app, 'ctrader@example.com');
    const back = await authorizeAndReturn(app, headers);
    const sent = new URL(back.authorizeUrl);
    expect(`${sent.origin}${sent.pathname}`).toBe(oauth.authorizeUrl);
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      client_id: FAKE_APP.clientId,
      redirect_uri: redirectUri,
      scope: 'trading',
      state: back.state,
    });
    expect(back.state.length).toBeGreaterThanOrEqual(43);
    // Only the state's hash is stored.
    const [pending] = await app.database.db.select().from(ctraderAuthorizations);
    expect(pending?.stateHash).not.toBe(back.state);

    const answered = await callback(app, headers, back);
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toEqual({
      data: {
        accounts: [
          {
            ctidTraderAccountId: DEMO_ACCOUNT.ctidTraderAccountId,
            live: false,
            brokerName: 'Fake Markets',
            traderLogin: DEMO_ACCOUNT.traderLogin,
            currency: 'USD',
            leverage: 100,
            pickable: true,
          },
          {
            ctidTraderAccountId: LIVE_ACCOUNT.ctidTraderAccountId,
            live: true,
            brokerName: 'Fake Markets',
            traderLogin: LIVE_ACCOUNT.traderLogin,
            currency: null,
            leverage: null,
            pickable: false,
          },
        ],
      },
    });
    const exchange = oauth.tokenRequests.at(-1);
    expect(exchange).toMatchObject({
      grant_type: 'authorization_code',
      code: back.code,
      redirect_uri: redirectUri,
      client_id: FAKE_APP.clientId,
    });
    // The picker survives a reload.
    const status = await app.inject({ method: 'GET', url: `${v1}/ctrader`, headers });
    expect(status.json<{ data: { accounts: unknown[] } }>().data.accounts).toHaveLength(2);

    const live = await pick(app, headers, LIVE_ACCOUNT.ctidTraderAccountId);
    expect(live.statusCode).toBe(422);
    expect(live.json()).toMatchObject({
      message: 'Este servidor solo vincula cuentas demo de cTrader: elige otra cuenta.',
    });
    expect((await pick(app, headers, 123)).statusCode).toBe(422);

    const linked = await pick(app, headers, DEMO_ACCOUNT.ctidTraderAccountId);
    expect(linked.statusCode).toBe(201);
    expect(linked.json()).toMatchObject({
      data: { linked: true, login_tradear: true, platform: 'ctrader' },
    });
    expect((await getSettings(app, token)).json()).toMatchObject({
      data: { linked: true, login_tradear: true },
    });
    const [link] = await app.database.db
      .select()
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.userId, userId));
    expect(link).toMatchObject({
      platform: 'ctrader',
      platformAccountId: String(DEMO_ACCOUNT.ctidTraderAccountId),
      brokerAccount: { currency: 'USD', leverage: 100, live: false },
    });
    expect(link?.tokenExpiresAt?.getTime()).toBe(clock.now().getTime() + 2_628_000_000);
    expect(JSON.stringify(link)).not.toContain(DEMO_ACCOUNT.accessToken);
    const grant = app.services.ctraderLinking.openGrant(userId, {
      keyId: link?.credentialsKeyId ?? '',
      ciphertext: link?.credentialsCiphertext ?? '',
    });
    expect(grant.accessToken).toBe(oauth.currentAccessToken);
    // The authorisation is spent with the link; linking again is refused.
    expect(await app.database.db.select().from(ctraderAuthorizations)).toEqual([]);
    expect((await authorize(app, headers)).statusCode).toBe(409);
  });

  it('refuses a state that is not the user’s, a replayed callback, a code used twice, an expired code and an authorisation older than an hour', async () => {
    const { app } = context;
    const ana = await paidUser(app, 'ana-ct@example.com');
    const bea = await paidUser(app, 'bea-ct@example.com');
    const stateRefused = {
      code: 'BAD_REQUEST',
      message:
        'La autorización de cTrader no corresponde a este pedido o venció. Empieza de nuevo desde Vincular cuenta.',
    };

    const anas = await authorizeAndReturn(app, ana.headers);
    // Another user's state, and a state never issued.
    expect((await callback(app, bea.headers, anas)).json()).toMatchObject(stateRefused);
    const forged = await callback(app, ana.headers, { code: anas.code, state: 'x'.repeat(43) });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject(stateRefused);
    // The real one works once; the same callback replayed is refused.
    expect((await callback(app, ana.headers, anas)).statusCode).toBe(200);
    expect((await callback(app, ana.headers, anas)).json()).toMatchObject(stateRefused);

    // A code already exchanged, under a fresh state: cTrader refuses it.
    const started = await authorize(app, bea.headers);
    const beas = await grantingPage(
      started.json<{ data: { authorizeUrl: string } }>().data.authorizeUrl,
    );
    const reused = await callback(app, bea.headers, { code: anas.code, state: beas.state });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({
      message:
        'cTrader no aceptó la autorización (el código venció o ya se usó). Empieza de nuevo desde Vincular cuenta.',
    });
    // That state is spent too: its own code no longer gets through.
    expect((await callback(app, bea.headers, beas)).json()).toMatchObject(stateRefused);

    // A code past its minute.
    const late = await authorizeAndReturn(app, bea.headers);
    oauth.expireCodes();
    expect((await callback(app, bea.headers, late)).json()).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('cTrader no aceptó la autorización') as string,
    });

    // An authorisation older than an hour.
    const old = await authorizeAndReturn(app, bea.headers);
    clock.advance(61 * 60_000);
    expect((await callback(app, bea.headers, old)).json()).toMatchObject(stateRefused);

    // Nothing was linked by any of it.
    expect(await app.database.db.select().from(tradingPlatformLinks)).toEqual([]);
  });

  it('a code accepted whose accounts cTrader will not list is said as such, not as a used or expired code', async () => {
    const { app } = context;
    const { headers } = await paidUser(app, 'ct-no-list@example.com');
    const back = await authorizeAndReturn(app, headers);
    // The Open API refuses the token the code is exchanged for.
    const token = oauth.currentAccessToken;
    ctrader.expireToken(token);
    try {
      const es = await callback(app, headers, back);
      expect(es.statusCode).toBe(503);
      expect(es.json()).toMatchObject({
        message:
          'cTrader aceptó la autorización, pero no nos dejó leer tus cuentas. Inténtalo de nuevo desde Vincular cuenta en unos minutos.',
      });
      const ptHeaders = { ...headers, 'accept-language': 'pt-BR' };
      const pt = await callback(app, ptHeaders, await authorizeAndReturn(app, ptHeaders));
      expect(pt.json()).toMatchObject({
        message:
          'A cTrader aceitou a autorização, mas não nos deixou ler suas contas. Tente de novo em Vincular conta daqui a alguns minutos.',
      });
    } finally {
      ctrader.replaceToken(token, token);
    }
  });

  it('refreshes a grant before it expires, once across two processes; the old token stops working at cTrader', async () => {
    const { app } = context;
    const { userId, headers } = await paidUser(app, 'refresh@example.com');
    await linkDemo(app, headers);
    const before = oauth.currentAccessToken;
    const readGrant = async () => {
      const [link] = await app.database.db
        .select()
        .from(tradingPlatformLinks)
        .where(eq(tradingPlatformLinks.userId, userId));
      return {
        link,
        grant: app.services.ctraderLinking.openGrant(userId, {
          keyId: link?.credentialsKeyId ?? '',
          ciphertext: link?.credentialsCiphertext ?? '',
        }),
      };
    };
    // Not due yet: nothing is sent.
    const requests = oauth.tokenRequests.length;
    expect(await app.services.ctraderLinking.refreshDue()).toBe(0);
    expect(oauth.tokenRequests.length).toBe(requests);

    // 24 days on, within the week before expiry: two processes race, one refreshes.
    clock.advance(24 * day);
    const second = await replica(context, ctraderEnv(), [], { clock, ctraderRefreshTimers: false });
    try {
      const counts = await Promise.all([
        app.services.ctraderLinking.refreshDue(),
        second.services.ctraderLinking.refreshDue(),
      ]);
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);
    } finally {
      await second.close();
    }
    const refreshes = oauth.tokenRequests.slice(requests);
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toMatchObject({ grant_type: 'refresh_token' });
    const { link, grant } = await readGrant();
    expect(grant.accessToken).toBe(oauth.currentAccessToken);
    expect(grant.accessToken).not.toBe(before);
    expect(link?.tokenExpiresAt?.getTime()).toBe(clock.now().getTime() + 2_628_000_000);
    const [claim] = await app.database.db
      .select()
      .from(jobClaims)
      .where(eq(jobClaims.job, 'ctrader.refresh'));
    expect(claim?.finishedAt).not.toBeNull();
    // The fake follows the token endpoint: the new token is served, the old refused.
    const endpoint = {
      host: '127.0.0.1',
      port: ctrader.port,
      tls: false,
      ...FAKE_APP,
      environment: 'demo' as const,
    };
    await expect(listCTraderAccounts(endpoint, before)).rejects.toThrow(
      'cTrader refused the access token',
    );
    expect(await listCTraderAccounts(endpoint, grant.accessToken)).toHaveLength(2);
  });

  it('a refresh cTrader refuses (the user removed us at cTrader ID) is left to expire, not retried', async () => {
    const { app } = context;
    const { userId, headers } = await paidUser(app, 'revocado@example.com');
    await linkDemo(app, headers);
    const [before] = await app.database.db
      .select()
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.userId, userId));
    oauth.revokeGrant();
    clock.advance(24 * day);
    const requests = oauth.tokenRequests.length;
    expect(await app.services.ctraderLinking.refreshDue()).toBe(0);
    expect(oauth.tokenRequests.length).toBe(requests + 1);
    // The grant stays as it was, and the next run does not ask again for the same grant.
    const [after] = await app.database.db
      .select()
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.userId, userId));
    expect(after?.credentialsCiphertext).toBe(before?.credentialsCiphertext);
    expect(after?.tokenExpiresAt).toEqual(before?.tokenExpiresAt);
    expect(await app.services.ctraderLinking.refreshDue()).toBe(0);
    expect(oauth.tokenRequests.length).toBe(requests + 1);
  });

  it('unlinks a cTrader account: password checked, tokens erased, the robot off, a record kept; nothing left to unlink after', async () => {
    const { app } = context;
    const { token, userId, headers } = await paidUser(app, 'unlink-ct@example.com');
    await linkDemo(app, headers);
    const wrong = await unlink(app, headers, { password: 'otra-clave1', closeOperations: false });
    expect(wrong.statusCode).toBe(422);
    const done = await unlink(app, headers, {
      password: validRegistration.password,
      closeOperations: false,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ data: { linked: false, closed: 0, leftOpen: 0 } });
    expect((await getSettings(app, token)).json()).toMatchObject({
      data: { linked: false, login_tradear: false },
    });
    expect(
      await app.database.db
        .select()
        .from(tradingPlatformLinks)
        .where(eq(tradingPlatformLinks.userId, userId)),
    ).toEqual([]);
    const records = await app.database.db
      .select()
      .from(platformUnlinks)
      .where(eq(platformUnlinks.userId, userId));
    expect(records).toMatchObject([
      {
        platform: 'ctrader',
        platformAccountId: String(DEMO_ACCOUNT.ctidTraderAccountId),
        closedPositions: false,
        openPositions: 0,
      },
    ]);
    const again = await unlink(app, headers, {
      password: validRegistration.password,
      closeOperations: false,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'No tienes una cuenta vinculada.' });
    // Linking again is possible: a new authorisation starts.
    expect((await authorize(app, headers)).statusCode).toBe(200);
  });

  it('a broker account linked by one user is refused to another (409, in their language), even at once; free again once unlinked', async () => {
    const { app } = context;
    const ana = await paidUser(app, 'ana-ct@example.com');
    const bia = await paidUser(app, 'bia-ct@example.com');
    const biaPt = { ...bia.headers, 'accept-language': 'pt-BR' };
    await linkDemo(app, ana.headers);

    // Bia granted the same cTrader account (the fake grants DEMO_ACCOUNT to everyone).
    expect((await callback(app, biaPt, await authorizeAndReturn(app, biaPt))).statusCode).toBe(200);
    const refused = await pick(app, biaPt, DEMO_ACCOUNT.ctidTraderAccountId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'BROKER_ACCOUNT_TAKEN',
      message:
        'Essa conta da cTrader já está vinculada a outro usuário do Tradebot. Escolha outra conta ou fale com o suporte.',
    });
    expect((await getSettings(app, bia.token)).json()).toMatchObject({ data: { linked: false } });

    // Once Ana unlinks, Bia links it; Ana, wanting it back, is told in Spanish.
    const password = validRegistration.password;
    expect((await unlink(app, ana.headers, { password, closeOperations: false })).statusCode).toBe(
      200,
    );
    expect((await pick(app, biaPt, DEMO_ACCOUNT.ctidTraderAccountId)).statusCode).toBe(201);
    expect(
      (await callback(app, ana.headers, await authorizeAndReturn(app, ana.headers))).statusCode,
    ).toBe(200);
    const back = await pick(app, ana.headers, DEMO_ACCOUNT.ctidTraderAccountId);
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({
      message:
        'Esa cuenta de cTrader ya está vinculada a otro usuario de Tradebot. Elige otra cuenta o escríbenos a soporte.',
    });
    // Bia unlinks; Ana re-links the account she had: fine.
    expect((await unlink(app, biaPt, { password, closeOperations: false })).statusCode).toBe(200);
    expect((await pick(app, ana.headers, DEMO_ACCOUNT.ctidTraderAccountId)).statusCode).toBe(201);
    expect((await unlink(app, ana.headers, { password, closeOperations: false })).statusCode).toBe(
      200,
    );

    // Both pick it at once: the database lets one link through.
    for (const who of [ana.headers, bia.headers]) {
      expect((await callback(app, who, await authorizeAndReturn(app, who))).statusCode).toBe(200);
    }
    const racing = await Promise.all(
      [ana.headers, bia.headers].map((who) => pick(app, who, DEMO_ACCOUNT.ctidTraderAccountId)),
    );
    expect(racing.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const links = await app.database.db
      .select()
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.platformAccountId, String(DEMO_ACCOUNT.ctidTraderAccountId)));
    expect(links).toHaveLength(1);
  });

  it('deleting the account erases a grant waiting to be picked and past unlinkings', async () => {
    const { app } = context;
    const { userId, headers } = await paidUser(app, 'borrar-ct@example.com');
    await linkDemo(app, headers);
    const password = validRegistration.password;
    expect((await unlink(app, headers, { password, closeOperations: false })).statusCode).toBe(200);
    const back = await authorizeAndReturn(app, headers);
    expect((await callback(app, headers, back)).statusCode).toBe(200);
    const db = app.database.db;
    const grants = () =>
      db.select().from(ctraderAuthorizations).where(eq(ctraderAuthorizations.userId, userId));
    const unlinkings = () =>
      db.select().from(platformUnlinks).where(eq(platformUnlinks.userId, userId));
    expect(await grants()).toHaveLength(1);
    expect(await unlinkings()).toHaveLength(1);
    const deleted = await app.inject({
      method: 'POST',
      url: `${v1}/account/delete`,
      headers,
      payload: { password },
    });
    expect(deleted.json()).toEqual({ data: { deleted: true } });
    expect(await grants()).toEqual([]);
    expect(await unlinkings()).toEqual([]);
  });

  it('unlinks the built-in platform the same way', async () => {
    const { app } = context;
    const { userId, headers } = await paidUser(app, 'unlink-demo@example.com');
    expect((await linkAccount(app, headers)).statusCode).toBe(201);
    const done = await unlink(app, headers, {
      password: validRegistration.password,
      closeOperations: false,
    });
    expect(done.statusCode).toBe(200);
    expect(
      await app.database.db
        .select()
        .from(tradingPlatformLinks)
        .where(eq(tradingPlatformLinks.userId, userId)),
    ).toEqual([]);
    const [record] = await app.database.db
      .select()
      .from(platformUnlinks)
      .where(eq(platformUnlinks.userId, userId));
    expect(record).toMatchObject({ platform: 'tradebot-demo', platformAccountId: userId });
  });
});

describe('unlinking with the robot trading', () => {
  const context = useRobotApp();

  it('closes the open operations on request, switches the robot off and erases the link', async () => {
    const { app } = context;
    const { userId, headers, token } = await trader(app);
    await app.database.db.insert(tradingPlatformLinks).values({
      userId,
      platform: 'tradebot-demo',
      platformAccountId: userId,
      linkedAt: new Date(),
    });
    const robot = robotOf(app);
    const opened = await runMarket(
      context,
      async () => ((await robot.projection(userId))?.trades.length ?? 0) > 0,
    );
    expect(opened).toBe(true);
    const open = (await robot.projection(userId))?.trades.length ?? 0;
    const done = await unlink(app, headers, {
      password: validRegistration.password,
      closeOperations: true,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ data: { linked: false, closed: open, leftOpen: 0 } });
    expect((await robot.projection(userId))?.trades ?? []).toEqual([]);
    expect((await getSettings(app, token)).json()).toMatchObject({
      data: { linked: false, login_tradear: false },
    });
    const [record] = await app.database.db
      .select()
      .from(platformUnlinks)
      .where(eq(platformUnlinks.userId, userId));
    expect(record).toMatchObject({ closedPositions: true, openPositions: open });
    // The robot stays off: the market moves, nothing opens.
    await runMarket(context, () => false, 60);
    expect((await robot.projection(userId))?.trades ?? []).toEqual([]);
  });
});
