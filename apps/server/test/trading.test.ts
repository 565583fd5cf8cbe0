import {
  getAllDataResponseSchema,
  realtimeClosedCount,
  robotStatusResponseSchema,
  type TradingData,
} from '@tradebot/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, login, registeredToken, v1, validRegistration } from './helpers/accounts';
import { useTestApp } from './helpers/app';
import {
  getAllData,
  openCount,
  postSettings,
  robotOf,
  runMarket,
  storedTrades,
  trader,
  useRobotApp,
} from './helpers/trading';

const routes = [
  { method: 'GET', url: `${v1}/get-all-data` },
  { method: 'POST', url: `${v1}/settings` },
  { method: 'POST', url: `${v1}/robot/kill` },
  { method: 'GET', url: `${v1}/equity-curve` },
  { method: 'GET', url: `${v1}/history-csv` },
  { method: 'GET', url: `${v1}/robot-status` },
] as const;

const validSettings = {
  bot_on: true,
  risk: 2,
  categories_enabled: JSON.stringify({
    forex: false,
    cripto: true,
    stocks: false,
    index: false,
    commodities: false,
  }),
};

function dataOf(response: { json: () => unknown }): TradingData {
  return getAllDataResponseSchema.parse(response.json()).data;
}

describe('the live account API refuses', () => {
  const context = useRobotApp();

  it.each(routes)('$method $url without a valid token (401)', async ({ method, url }) => {
    const none = await context.app.inject({ method, url });
    expect(none.statusCode).toBe(401);
    const bad = await context.app.inject({ method, url, headers: bearer('not-a-token') });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each(routes)(
    '$method $url to a user who has not paid, in their language (403)',
    async (route) => {
      const token = await registeredToken(context.app, 'unpaid@example.com');
      const response = await context.app.inject({
        ...route,
        headers: { ...bearer(token), 'accept-language': 'pt-BR' },
        ...(route.method === 'POST' && route.url.endsWith('/settings')
          ? { payload: validSettings }
          : {}),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        code: 'FORBIDDEN',
        message: 'Você precisa concluir o pagamento para acessar sua carteira e o robô.',
      });
    },
  );

  it('a paid user who has not linked an account (403)', async () => {
    const { headers } = await trader(context.app, { linked: false });
    const response = await getAllData(context.app, headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'Debes vincular tu cuenta de broker para acceder a tu cartera y al robot.',
    });
  });

  it('bad queries and bodies, field by field, in the user language (422)', async () => {
    const { headers } = await trader(context.app);
    const badPeriod = await getAllData(context.app, headers, '?period=year&limit=0');
    expect(badPeriod.statusCode).toBe(422);
    expect(badPeriod.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Revisa los datos enviados.',
      errors: { period: ['Valor no válido'], limit: ['Valor no válido'] },
    });
    const badCursor = await getAllData(context.app, headers, '?before=yesterday');
    expect(badCursor.statusCode).toBe(422);
    expect(badCursor.json()).toMatchObject({ errors: { before: ['Valor no válido'] } });

    const badSettings = await context.app.inject({
      method: 'POST',
      url: `${v1}/settings`,
      headers: { ...headers, 'accept-language': 'pt' },
      payload: { bot_on: 'yes', risk: 9, categories_enabled: '{"forex": true' },
    });
    expect(badSettings.statusCode).toBe(422);
    expect(badSettings.json()).toMatchObject({
      message: 'Verifique os dados enviados.',
      errors: {
        bot_on: ['Valor inválido'],
        risk: ['Valor inválido'],
        categories_enabled: ['Valor inválido'],
      },
    });
    const missingFlag = await context.app.inject({
      method: 'POST',
      url: `${v1}/settings`,
      headers,
      payload: { ...validSettings, categories_enabled: JSON.stringify({ forex: true }) },
    });
    expect(missingFlag.statusCode).toBe(422);
    const badCurve = await context.app.inject({ url: `${v1}/equity-curve?period=decade`, headers });
    expect(badCurve.statusCode).toBe(422);
    const badCsv = await context.app.inject({ url: `${v1}/history-csv?period=x`, headers });
    expect(badCsv.statusCode).toBe(422);
  });
});

describe('get-all-data', () => {
  const context = useRobotApp();

  it('shows a new account: its deposit, nothing traded, the robot on', async () => {
    const { headers } = await trader(context.app, { botOn: false });
    const response = await getAllData(context.app, headers);
    expect(response.statusCode).toBe(200);
    expect(dataOf(response)).toEqual({
      account: {
        balance: 10_000,
        freeMargin: 10_000,
        equity: 10_000,
        earnings: 0,
        deposits: 10_000,
        usedMargin: 0,
        exposure: 0,
        exposureCap: 0.5,
      },
      accountKind: 'simulated',
      // Its prices are our simulated market's (decision 140).
      prices: { kind: 'simulator' },
      // The built-in platform's simulated money is in dollars (decision 097).
      accountCurrency: 'USD',
      trades: [],
      closed: [],
      closedPage: { period: 'all', total: 0, nextCursor: null },
      robot: { bot_on: false, trading: false, idleReason: 'ROBOT_OFF' },
    });
  });

  it('shows a paid, linked user without an account at the platform as not linked there', async () => {
    const token = await registeredToken(context.app, 'pending@example.com');
    await context.app.database.db.execute(
      sql`update user_settings set authorized = true, linked = true, bot_on = true`,
    );
    const data = dataOf(await getAllData(context.app, bearer(token)));
    expect(data.account).toBeNull();
    expect(data.robot).toEqual({ bot_on: true, trading: false, idleReason: 'NOT_LINKED' });
  });

  it('shows operations opened by the robot with live profit, and closed ones newest first', async () => {
    const { headers, userId } = await trader(context.app);
    const robot = robotOf(context.app);
    const traded = await runMarket(context, async () =>
      (await storedTrades(context.app, userId)).some((t) => t.closedAt !== null),
    );
    expect(traded).toBe(true);

    const data = dataOf(await getAllData(context.app, headers));
    // It trades until its operations fill the 50% cap, then waits for one to close.
    expect(data.robot.bot_on).toBe(true);
    expect([null, 'EXPOSURE_CAP_REACHED']).toContain(data.robot.idleReason);
    expect(data.robot.trading).toBe(data.robot.idleReason === null);
    expect(data.trades.length).toBeGreaterThan(0);
    for (const row of data.trades) {
      expect(row).toMatchObject({ status: 'open', CloseTime: null, closeReason: null, Cmd: 0 });
      expect(row.category).toBe('cripto');
    }
    // Each open row's profit is its live mark: together, equity less balance.
    const figures = await robot.account(userId);
    const unrealisedCents = data.trades.reduce((sum, row) => sum + Math.round(row.Profit * 100), 0);
    expect(unrealisedCents).toBe((figures?.equityCents ?? 0) - (figures?.balanceCents ?? 0));
    expect(data.closed.length).toBeGreaterThan(0);
    for (const row of data.closed) {
      expect(row.status).toBe('closed');
      expect(['tp', 'sl']).toContain(row.closeReason);
    }
    expect(data.account).toMatchObject({
      balance: (figures?.balanceCents ?? 0) / 100,
      equity: (figures?.equityCents ?? 0) / 100,
      usedMargin: (figures?.usedMarginCents ?? 0) / 100,
    });
    expect(data.account?.exposure).toBeLessThanOrEqual(0.5);
    expect(data.account?.exposure).toBeGreaterThan(0);
  });

  it('pages the history with a cursor and filters it by period', async () => {
    const { headers, userId } = await trader(context.app);
    const closedCount = async () =>
      (await storedTrades(context.app, userId)).filter((t) => t.closedAt !== null).length;
    expect(await runMarket(context, async () => (await closedCount()) >= 7, 2000)).toBe(true);
    const total = await closedCount();

    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const query = `?limit=3${cursor ? `&before=${cursor}` : ''}`;
      const page = dataOf(await getAllData(context.app, headers, query));
      expect(page.closedPage.total).toBe(total);
      expect(page.closed.length).toBeLessThanOrEqual(3);
      seen.push(...page.closed.map((row) => row.id));
      cursor = page.closedPage.nextCursor;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const all = dataOf(await getAllData(context.app, headers, '?limit=1000')).closed;
    expect(all.map((row) => row.id)).toEqual(seen);
    const times = all.map((row) => row.CloseTime ?? '');
    expect([...times].sort().reverse()).toEqual(times);

    const today = dataOf(await getAllData(context.app, headers, '?period=day'));
    expect(today.closedPage.total).toBe(total);
    // A day later (signed in again: sessions last a day), the last day holds none of them and
    // the week holds them all.
    context.clock.advance(86_400_000 + 60_000);
    const later = await login(context.app, {
      email: 'trader@example.com',
      password: validRegistration.password,
    });
    const again = bearer(later.json<{ data: { token: string } }>().data.token);
    const day = dataOf(await getAllData(context.app, again, '?period=day'));
    expect(day.closedPage).toEqual({ period: 'day', total: 0, nextCursor: null });
    const week = dataOf(await getAllData(context.app, again, '?period=week'));
    expect(week.closedPage.total).toBe(total);
  });
});

describe('settings and the kill switch', () => {
  const context = useRobotApp({ LOG_LEVEL: 'error' });

  it('stores the settings, applies them to the running engine at once, and answers them', async () => {
    const { headers, userId } = await trader(context.app, { botOn: false });
    expect(await runMarket(context, () => false, 5)).toBe(false);
    expect(await storedTrades(context.app, userId)).toHaveLength(0);

    const response = await postSettings(context.app, headers, validSettings);
    expect(response.statusCode).toBe(200);
    const answer = {
      bot_on: true,
      risk: 2,
      categories_enabled: {
        forex: false,
        cripto: true,
        stocks: false,
        index: false,
        commodities: false,
        all: false,
      },
    };
    expect(response.json()).toEqual({ data: answer });
    const config = await context.app.inject({ url: `${v1}/get-settings`, headers });
    expect(config.json<{ data: { settings: unknown } }>().data.settings).toEqual(answer);

    // The very next tick trades.
    await runMarket(context, () => false, 1);
    const trades = await storedTrades(context.app, userId);
    expect(trades.length).toBeGreaterThan(0);

    // Off: no new order from the next tick on; open operations run to their TP or SL.
    const off = await context.app.inject({
      method: 'POST',
      url: `${v1}/settings`,
      headers,
      payload: { ...validSettings, bot_on: false },
    });
    expect(off.statusCode).toBe(200);
    const before = (await storedTrades(context.app, userId)).length;
    const openBefore = await openCount(context.app, userId);
    expect(openBefore).toBeGreaterThan(0);
    await runMarket(context, async () => (await openCount(context.app, userId)) === 0, 3000);
    expect(await storedTrades(context.app, userId)).toHaveLength(before);
    const data = dataOf(await getAllData(context.app, headers));
    expect(data.robot).toEqual({ bot_on: false, trading: false, idleReason: 'ROBOT_OFF' });
    expect(data.trades).toEqual([]);
    expect(data.closed.every((row) => row.closeReason !== 'kill')).toBe(true);
  });

  it('says why a robot that is on does not trade', async () => {
    const { headers } = await trader(context.app);
    const forexOnly = {
      ...validSettings,
      categories_enabled: JSON.stringify({
        forex: true,
        cripto: false,
        stocks: false,
        index: false,
        commodities: false,
      }),
    };
    await context.app.inject({
      method: 'POST',
      url: `${v1}/settings`,
      headers,
      payload: forexOnly,
    });
    // Saturday: the currency markets are closed, until Sunday 17:00 in New York (decision 147).
    expect(dataOf(await getAllData(context.app, headers)).robot).toEqual({
      bot_on: true,
      trading: false,
      idleReason: 'MARKET_CLOSED',
      activity: {
        asOf: new Date(context.clock.now()).toISOString(),
        categories: [
          {
            category: 'forex',
            state: 'MARKET_CLOSED',
            opensAt: '2026-11-22T22:00:00.000Z',
            openOperations: 0,
            evaluatedAt: null,
          },
        ],
      },
    });
    const none = {
      ...validSettings,
      categories_enabled: JSON.stringify({
        forex: false,
        cripto: false,
        stocks: false,
        index: false,
        commodities: false,
      }),
    };
    await context.app.inject({ method: 'POST', url: `${v1}/settings`, headers, payload: none });
    expect(dataOf(await getAllData(context.app, headers)).robot.idleReason).toBe(
      'NO_CATEGORY_ENABLED',
    );
  });

  it('says what the robot does in each category chosen, and when it last looked (decision 147)', async () => {
    const { headers } = await trader(context.app);
    const forexAndCrypto = {
      ...validSettings,
      categories_enabled: JSON.stringify({
        forex: true,
        cripto: true,
        stocks: false,
        index: false,
        commodities: false,
      }),
    };
    await postSettings(context.app, headers, forexAndCrypto);
    const robotStatus = async () => {
      const response = await context.app.inject({ url: `${v1}/robot-status`, headers });
      expect(response.statusCode).toBe(200);
      return robotStatusResponseSchema.parse(response.json()).data;
    };
    await runMarket(context, async () => {
      const [, crypto] = (await robotStatus()).activity?.categories ?? [];
      return (crypto?.openOperations ?? 0) > 0;
    });
    const robot = await robotStatus();
    const now = new Date(context.clock.now()).toISOString();
    // The account as a whole may have reached the exposure cap by then (one signal a tick).
    expect(robot.bot_on).toBe(true);
    expect(robot.activity).toEqual({
      asOf: now,
      categories: [
        {
          category: 'forex',
          state: 'MARKET_CLOSED',
          opensAt: '2026-11-22T22:00:00.000Z',
          openOperations: 0,
          evaluatedAt: null,
        },
        {
          category: 'cripto',
          state: 'TRADING',
          best: expect.objectContaining({ probability: 0.999 }) as unknown,
          openOperations: expect.any(Number) as unknown,
          // It looks at every crypto quote: the last one came with the clock's last move.
          evaluatedAt: now,
        },
      ],
    });
    // get-all-data says the same.
    expect(dataOf(await getAllData(context.app, headers)).robot).toEqual(robot);
  });

  it('kill switch: the robot goes off and every open operation closes at once', async () => {
    const { headers, userId } = await trader(context.app);
    expect(await runMarket(context, async () => (await openCount(context.app, userId)) >= 2)).toBe(
      true,
    );
    const open = await openCount(context.app, userId);

    const response = await context.app.inject({
      method: 'POST',
      url: `${v1}/robot/kill`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: { settings: { bot_on: false }, closed: open },
    });
    const data = dataOf(await getAllData(context.app, headers));
    expect(data.trades).toEqual([]);
    expect(data.robot.bot_on).toBe(false);
    expect(data.closed.filter((row) => row.closeReason === 'kill')).toHaveLength(open);

    await runMarket(context, () => false, 5);
    expect(await openCount(context.app, userId)).toBe(0);
  });

  it('sends the user opened and closed operations at once', async () => {
    const { userId } = await trader(context.app);
    context.publisher.listening.add(userId);
    expect(
      await runMarket(context, async () =>
        context.publisher.to(userId).some((info) => (info.closed?.length ?? 0) > 0),
      ),
    ).toBe(true);
    // Updates are built after the event loop turns; give the last one time to go out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const updates = context.publisher.to(userId);
    const first = updates[0];
    expect(first?.trades?.length).toBeGreaterThan(0);
    expect(first?.account?.deposits).toBe(10_000);
    const withClosed = updates.find((info) => info.closed !== undefined);
    expect(withClosed?.closed?.length).toBeLessThanOrEqual(realtimeClosedCount);
    expect(withClosed?.closed?.[0]?.status).toBe('closed');
    const closedInStore = (await storedTrades(context.app, userId)).filter(
      (t) => t.closedAt !== null,
    );
    expect(closedInStore.map((t) => t.positionId)).toContain(withClosed?.closed?.[0]?.id);
  });
});

describe('equity moving with prices', () => {
  const context = useRobotApp();

  it('reaches a watching user by a sweep, a few times a second at most, never per tick', async () => {
    const { headers, userId } = await trader(context.app);
    const robot = robotOf(context.app);
    expect(await runMarket(context, async () => (await openCount(context.app, userId)) >= 2)).toBe(
      true,
    );
    // The robot off: no more openings, so updates without `closed` come from the sweep.
    await context.app.inject({
      method: 'POST',
      url: `${v1}/settings`,
      headers,
      payload: { ...validSettings, bot_on: false },
    });
    context.publisher.sent.length = 0;
    // Nobody watching: nothing is built.
    await runMarket(context, () => false, 5);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(context.publisher.to(userId)).toEqual([]);

    context.publisher.listening.add(userId);
    const watched = Date.now();
    await runMarket(context, () => false, 10);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const elapsed = Date.now() - watched;
    const sweeps = context.publisher.to(userId).filter((info) => info.closed === undefined);
    if ((await openCount(context.app, userId)) > 0) {
      expect(sweeps.length).toBeGreaterThan(0);
      expect(sweeps.at(-1)?.account?.equity).toBe(
        ((await robot.account(userId))?.equityCents ?? 0) / 100,
      );
      expect(sweeps.at(-1)?.trades?.length).toBe(await openCount(context.app, userId));
    }
    // Ten ticks, but at most one sweep per 500 ms.
    expect(sweeps.length).toBeLessThanOrEqual(Math.floor(elapsed / 500) + 1);
  });
});

describe('CSV export', () => {
  const context = useRobotApp();

  it('exports the closed operations of a period, one row each, as an attachment', async () => {
    const { headers, userId } = await trader(context.app);
    const closedCount = async () =>
      (await storedTrades(context.app, userId)).filter((t) => t.closedAt !== null).length;
    expect(await runMarket(context, async () => (await closedCount()) >= 3)).toBe(true);

    const csv = await context.app.inject({ url: `${v1}/history-csv?period=week`, headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    // The account's language (es) and UTC when the browser said neither (decision 154).
    expect(csv.headers['content-disposition']).toBe('attachment; filename="operaciones-week.csv"');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Apertura (UTC);Cierre (UTC);Activo;Símbolo;Dirección;Lotes;Unidades;Precio de apertura;' +
        'Precio de cierre;Objetivo de ganancia (TP);Límite de pérdida (SL);Motivo del cierre;' +
        'Resultado;Moneda;Mercado',
    );
    const closed = (await storedTrades(context.app, userId)).filter((t) => t.closedAt !== null);
    expect(lines).toHaveLength(closed.length + 1);
    const profits = lines.slice(1).map((line) => Number(line.split(';').at(-3)?.replace(',', '.')));
    // The simulated platform's operations are in dollars (decision 097), on the simulator's
    // prices, which every line names (decision 140).
    const simulator = ';USD;Simulado por Tradebot (tendencias generadas, no precios reales)';
    expect(lines.slice(1).every((line) => line.endsWith(simulator))).toBe(true);
    const realised = closed.reduce((sum, t) => sum + (t.profitCents ?? 0), 0);
    expect(Math.round(profits.reduce((a, b) => a + b, 0) * 100)).toBe(realised);

    // The browser's language and zone when it says them.
    const pt = await context.app.inject({
      url: `${v1}/history-csv?period=week&language=pt&time_zone=America%2FSao_Paulo`,
      headers,
    });
    expect(pt.statusCode).toBe(200);
    expect(pt.headers['content-disposition']).toBe('attachment; filename="operacoes-week.csv"');
    expect(pt.body.startsWith('\uFEFFAbertura (America/Sao_Paulo, GMT-03:00);')).toBe(true);
    const zone = await context.app.inject({
      url: `${v1}/history-csv?period=week&time_zone=Mars%2FOlympus`,
      headers,
    });
    expect(zone.statusCode).toBe(422);
  });
});

describe('equity curve', () => {
  const context = useRobotApp();

  it('plots the balance after each closed operation, ending at the equity now', async () => {
    const { headers, userId } = await trader(context.app);
    const robot = robotOf(context.app);
    const closedCount = async () =>
      (await storedTrades(context.app, userId)).filter((t) => t.closedAt !== null).length;
    expect(await runMarket(context, async () => (await closedCount()) >= 3)).toBe(true);

    const response = await context.app.inject({ url: `${v1}/equity-curve`, headers });
    expect(response.statusCode).toBe(200);
    const { points } = response.json<{ data: { points: { time: number; value: number }[] } }>()
      .data;
    expect(points.length).toBeGreaterThanOrEqual(2);
    const times = points.map((point) => point.time);
    expect([...new Set(times)].sort((a, b) => a - b)).toEqual(times);
    expect(points[0]?.value).toBe(10_000);
    const figures = await robot.account(userId);
    expect(points.at(-1)).toEqual({
      time: Math.floor(context.clock.now().getTime() / 1000),
      value: (figures?.equityCents ?? 0) / 100,
    });
  });
});

describe('without the robot in this process', () => {
  const context = useTestApp();

  it('the kill switch answers 503 and changes nothing', async () => {
    const token = await registeredToken(context.app, 'solo@example.com');
    await context.app.database.db.execute(
      // Paid and linked, robot on.
      sql`update user_settings set authorized = true, linked = true, bot_on = true`,
    );
    const response = await context.app.inject({
      method: 'POST',
      url: `${v1}/robot/kill`,
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const config = await context.app.inject({ url: `${v1}/get-settings`, headers: bearer(token) });
    expect(config.json<{ data: { settings: { bot_on: boolean } } }>().data.settings.bot_on).toBe(
      true,
    );
    const data = await context.app.inject({ url: `${v1}/get-all-data`, headers: bearer(token) });
    expect(data.statusCode).toBe(200);
    expect(data.json()).toMatchObject({ data: { account: null, trades: [], closed: [] } });
  });
});
