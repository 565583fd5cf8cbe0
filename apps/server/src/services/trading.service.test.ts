import type { RobotIdleReason } from '@tradebot/contract';
import { InstrumentCatalogue, type RobotSettings, type TradeRecord } from '@tradebot/robot';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors';
import type { AccountCommands } from '../robot/link/account-commands';
import type { AccountProjection } from '../robot/protocol/robot-protocol';
import { RobotUnavailable, type RobotRuntime } from '../robot/link/robot-runtime';
import type {
  AccountLink,
  PlatformAccountRow,
  TradingStore,
} from '../repositories/trading.repository';
import {
  allCategoriesEnabled,
  type SettingsRow,
  type UserRow,
  type UsersStore,
} from '../repositories/users.repository';
import {
  RobotOnWithoutAccess,
  TradingCursorInvalid,
  TradingNotAuthorized,
  TradingNotLinked,
} from './trading.errors';
import { TradingService, type RobotStopNotices } from './trading.service';

const user = { id: 'u1', email: 'ana@example.com' } as UserRow;
const now = new Date('2026-11-21T12:00:00Z');
const robotNow = now.getTime();
const allOn = allCategoriesEnabled;

/** The built-in platform's booked ledger: $10,000 deposited, and what the closed ones made. */
const ledgerOf = (realisedProfitCents: number) =>
  ({
    accountId: 'u1',
    depositsCents: 1_000_000,
    realisedProfitCents,
    balanceCents: 1_000_000 + realisedProfitCents,
  }) as PlatformAccountRow;

const settingsOf = (flags: Partial<SettingsRow> = {}): SettingsRow => ({
  userId: 'u1',
  botOn: true,
  risk: 2,
  categoriesEnabled: allOn,
  linked: true,
  loginTradear: true,
  authorized: true,
  updatedAt: now,
  ...flags,
});

/** A closed (or open) EURUSD operation on the built-in platform. */
function trade(positionId: string, fields: Partial<TradeRecord> = {}): TradeRecord {
  return {
    positionId,
    clientOrderId: `c-${positionId}`,
    accountId: 'u1',
    symbol: 'EURUSD',
    category: 'forex',
    side: 'buy',
    units: 1_000,
    openedAt: robotNow - 3_600_000,
    entryBid: 1.1,
    entryAsk: 1.1001,
    entryPrice: 1.1001,
    pipSize: 0.0001,
    takeProfit: 1.11,
    stopLoss: 1.09,
    probability: 0.6,
    breakEvenProbability: 0.5,
    marginCents: 2_000,
    equityAtEntryCents: 1_000_000,
    freeMarginAtEntryCents: 1_000_000,
    usedMarginAfterEntryCents: 2_000,
    closedAt: robotNow - 60_000,
    closePrice: 1.11,
    closeReason: 'takeProfit',
    profitCents: 1_000,
    currency: 'USD',
    ...fields,
  } as TradeRecord;
}

const simulated: AccountLink = { kind: 'simulated', currency: 'USD', ctidTraderAccountId: null };
const broker: AccountLink = { kind: 'demo', currency: 'EUR', ctidTraderAccountId: 44 };

interface RigOptions {
  settings?: SettingsRow | undefined;
  link?: AccountLink;
  reachable?: boolean;
  closes?: number;
  projection?: AccountProjection;
  platformAccount?: PlatformAccountRow;
  open?: TradeRecord[];
  closed?: TradeRecord[];
  robot?: Partial<RobotRuntime>;
  leases?: { owner: string };
  leaseHolder?: { owner: string; since: Date };
}

/** The service with plain stubs; `calls` lists what it wrote and asked of the robot, in order. */
function rig(options: RigOptions = {}) {
  const calls: string[] = [];
  const applied: { accountId: string; settings: RobotSettings }[] = [];
  let stored = 'settings' in options ? options.settings : settingsOf();
  const users = {
    findSettings: () => Promise.resolve(stored),
    updateRobotSettings: (
      userId: string,
      change: Pick<SettingsRow, 'botOn' | 'risk' | 'categoriesEnabled'>,
    ) => {
      calls.push(`updateRobotSettings ${userId} botOn=${String(change.botOn)}`);
      if (!stored) throw new Error('no settings');
      stored = { ...stored, ...change };
      return Promise.resolve(stored);
    },
  } as unknown as UsersStore;
  const trading: TradingStore = {
    accountLink: () => Promise.resolve(options.link ?? simulated),
    platformAccount: () => Promise.resolve(options.platformAccount),
    leaseHolder: () => Promise.resolve(options.leaseHolder),
    openOperations: () => Promise.resolve(options.open ?? []),
    operation: () => Promise.resolve(undefined),
    closedPage: (_id, page) => {
      const all = options.closed ?? [];
      return Promise.resolve({
        trades: all.slice(0, page.limit),
        total: all.length,
        more: all.length > page.limit,
      });
    },
    rejectionsPage: () => Promise.resolve({ rows: [], more: false }),
    untradableSymbols: () => Promise.resolve(null),
    closedSince: () => Promise.resolve(options.closed ?? []),
    balanceChanges: () =>
      Promise.resolve([
        { at: robotNow - 7_200_000, cents: 1_000_000 },
        { at: robotNow - 60_000, cents: 1_000 },
      ]),
  };
  const commands: AccountCommands = {
    reachable: () => options.reachable ?? true,
    closeAll: (accountId, settings) => {
      calls.push(`closeAll ${accountId} bot_on=${String(settings.bot_on)}`);
      return Promise.resolve(options.closes ?? 0);
    },
    closePosition: () => Promise.resolve(false),
    openOperations: () => Promise.resolve(options.open?.length ?? 0),
    deposit: () => Promise.resolve(),
    grantsChanged: () => Promise.resolve(),
    applySettings: (accountId, settings) => {
      calls.push(`applySettings ${accountId}`);
      applied.push({ accountId, settings });
      return Promise.resolve();
    },
    projection: () => Promise.resolve(options.projection),
  };
  const stops: RobotStopNotices = {
    killSwitchPulled: (userId, closed) => {
      calls.push(`killSwitchPulled ${userId} ${String(closed)}`);
      return Promise.resolve();
    },
  };
  const robot = options.robot
    ? ({
        running: () => true,
        hasAccount: () => true,
        brokerStatus: () => undefined,
        accountStatus: () => Promise.resolve({ idleReason: null }),
        ...options.robot,
      } as unknown as RobotRuntime)
    : undefined;
  const service = new TradingService(
    users,
    trading,
    new InstrumentCatalogue(),
    { now: () => now },
    () => robotNow,
    robot,
    undefined,
    stops,
    options.leases,
    commands,
  );
  return { service, calls, applied, stored: () => stored };
}

/** The domain error's class the promise rejects with. */
const refusalOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) =>
      error instanceof DomainError || error instanceof RobotUnavailable
        ? error.constructor
        : 'other',
  );

const query = { period: 'all' as const, limit: 20 };

describe('TradingService: who may read and steer the live account', () => {
  it('refuses an account that is not linked: "link first" with access, "no plan" without', async () => {
    const withAccess = rig({ settings: settingsOf({ linked: false, authorized: true }) });
    expect(await refusalOf(withAccess.service.tradingData(user, query))).toBe(TradingNotLinked);
    expect(await refusalOf(withAccess.service.kill(user))).toBe(TradingNotLinked);
    expect(await refusalOf(withAccess.service.historyCsv(user, 'all'))).toBe(TradingNotLinked);
    const without = rig({ settings: settingsOf({ linked: false, authorized: false }) });
    expect(await refusalOf(without.service.tradingData(user, query))).toBe(TradingNotAuthorized);
    expect(
      await refusalOf(
        without.service.updateSettings(user, { bot_on: false, risk: 1, categories_enabled: {} }),
      ),
    ).toBe(TradingNotAuthorized);
    expect(withAccess.calls).toEqual([]);
    expect(without.calls).toEqual([]);
  });

  it('lets a linked user without access read their operations (decision 063)', async () => {
    const { service } = rig({
      settings: settingsOf({ authorized: false, botOn: false }),
      closed: [trade('P1')],
    });
    const data = await service.tradingData(user, query);
    expect(data.closed.map((row) => row.id)).toEqual(['P1']);
  });

  it('refuses a history cursor it did not write', async () => {
    const { service } = rig();
    const bad = { ...query, before: "1'; drop table" };
    expect(await refusalOf(service.tradingData(user, bad))).toBe(TradingCursorInvalid);
    expect(await refusalOf(service.orderRejections(user, { limit: 5, before: 'x' }))).toBe(
      TradingCursorInvalid,
    );
  });

  it("pages the history with a cursor naming the page's last operation", async () => {
    const { service } = rig({ closed: [trade('P2'), trade('P1'), trade('P0')] });
    const data = await service.tradingData(user, { ...query, limit: 2 });
    expect(data.closedPage).toEqual({
      period: 'all',
      total: 3,
      nextCursor: `${String(robotNow - 60_000)}:P1`,
    });
  });

  it("shows a broker account's figures from the broker only, never the built-in ledger", async () => {
    const { service } = rig({ link: broker, platformAccount: ledgerOf(0) });
    const data = await service.tradingData(user, query);
    expect(data.account).toBeNull();
    expect(data.accountKind).toBe('demo');
    expect(data.accountCurrency).toBe('EUR');
  });

  it('falls back to the booked ledger with no unrealised profit when no robot has the account', async () => {
    const open = [
      trade('P1', { closedAt: null, closeReason: 'open' }),
      trade('P2', { closedAt: null, closeReason: 'open' }),
    ];
    const { service } = rig({ platformAccount: ledgerOf(5_000), open });
    const account = await service.account('u1');
    expect(account).toMatchObject({ balance: 10_050, equity: 10_050, earnings: 50 });
    expect(account?.usedMargin).toBe(40);
    expect(account?.freeMargin).toBe(10_010);
  });
});

describe('TradingService.updateSettings', () => {
  it('refuses to switch the robot on without access, and saves it off', async () => {
    const { service, calls } = rig({ settings: settingsOf({ authorized: false, botOn: false }) });
    expect(
      await refusalOf(
        service.updateSettings(user, { bot_on: true, risk: 1, categories_enabled: { all: true } }),
      ),
    ).toBe(RobotOnWithoutAccess);
    expect(calls).toEqual([]);
    const view = await service.updateSettings(user, {
      bot_on: false,
      risk: 3,
      categories_enabled: { forex: true },
    });
    expect(view.bot_on).toBe(false);
    expect(view.risk).toBe(3);
    expect(calls).toEqual(['updateRobotSettings u1 botOn=false', 'applySettings u1']);
  });

  it('turns `all` on only when each of the five categories is on, then applies it', async () => {
    const { service, applied, stored } = rig();
    await service.updateSettings(user, {
      bot_on: true,
      risk: 1,
      categories_enabled: { forex: true, cripto: true, stocks: true, index: true },
    });
    expect(stored()?.categoriesEnabled).toEqual({ ...allOn, commodities: false, all: false });
    const { all: _all, ...five } = allOn;
    await service.updateSettings(user, { bot_on: true, risk: 1, categories_enabled: five });
    expect(stored()?.categoriesEnabled).toEqual(allOn);
    expect(applied.at(-1)?.settings.bot_on).toBe(true);
  });

  it('applies a robot that is on as off when access ended (effective settings)', async () => {
    const { service, applied } = rig({ settings: settingsOf({ authorized: false, botOn: true }) });
    await service.applyStoredSettings('u1');
    expect(applied).toEqual([
      { accountId: 'u1', settings: expect.objectContaining({ bot_on: false }) as unknown },
    ]);
  });
});

describe('TradingService.kill (the kill switch)', () => {
  it("turns the robot off first, then closes the user's own operations, then tells them", async () => {
    const { service, calls, stored } = rig({ closes: 3 });
    const result = await service.kill(user);
    expect(result.closed).toBe(3);
    expect(result.settings.bot_on).toBe(false);
    expect(result.settings.risk).toBe(2);
    expect(stored()?.categoriesEnabled).toEqual(allOn);
    expect(calls).toEqual([
      'updateRobotSettings u1 botOn=false',
      'closeAll u1 bot_on=false',
      'killSwitchPulled u1 3',
    ]);
  });

  it('lets a linked user without access close everything (decision 063)', async () => {
    const { service, calls } = rig({ settings: settingsOf({ authorized: false }), closes: 1 });
    expect((await service.kill(user)).closed).toBe(1);
    expect(calls).toContain('closeAll u1 bot_on=false');
  });

  it('changes nothing when no robot can be reached, so that a retry does it all', async () => {
    const { service, calls } = rig({ reachable: false });
    expect(await refusalOf(service.kill(user))).toBe(RobotUnavailable);
    expect(calls).toEqual([]);
  });

  it('closes without the notice before a deletion, and does nothing for a user never linked', async () => {
    const linked = rig({ closes: 2 });
    expect(await linked.service.stopBeforeDeletion(user)).toBe(2);
    expect(linked.calls).toEqual([
      'updateRobotSettings u1 botOn=false',
      'closeAll u1 bot_on=false',
    ]);
    const never = rig({ settings: settingsOf({ linked: false }) });
    expect(await never.service.stopBeforeDeletion(user)).toBe(0);
    expect(never.calls).toEqual([]);
  });
});

describe('TradingService.robotStatus (why a robot that is on does not trade)', () => {
  const reasonOf = async (options: RigOptions, flags: Partial<SettingsRow> = {}) => {
    const { service } = rig(options);
    return (await service.robotStatus(settingsOf(flags))).idleReason;
  };
  const running = { robot: {} };

  it('names the most fundamental reason first', async () => {
    const cases: [Partial<SettingsRow>, RobotIdleReason][] = [
      [{ botOn: false, authorized: false, linked: false }, 'ROBOT_OFF'],
      [{ authorized: false, linked: false }, 'NOT_AUTHORIZED'],
      [{ linked: false, categoriesEnabled: {} }, 'NOT_LINKED'],
      [{ categoriesEnabled: { forex: false } }, 'NO_CATEGORY_ENABLED'],
    ];
    for (const [flags, reason] of cases) expect(await reasonOf(running, flags)).toBe(reason);
  });

  it('is halted without a running robot, and says what the engine says otherwise', async () => {
    expect(await reasonOf({})).toBe('TRADING_HALTED');
    expect(await reasonOf({ robot: { running: () => false } })).toBe('TRADING_HALTED');
    expect(await reasonOf({ robot: { hasAccount: () => false } })).toBe('NOT_LINKED');
    expect(
      await reasonOf({
        robot: { hasAccount: () => false, brokerStatus: () => 'BROKER_DISCONNECTED' },
      }),
    ).toBe('BROKER_DISCONNECTED');
    expect(
      await reasonOf({
        robot: { accountStatus: () => Promise.resolve({ idleReason: 'MARKET_CLOSED' }) },
      }),
    ).toBe('MARKET_CLOSED');
    const { service } = rig(running);
    expect(await service.robotStatus(settingsOf())).toEqual({
      bot_on: true,
      trading: true,
      idleReason: null,
    });
  });

  it("scaled: an account nobody holds is halted, another process's says what its holder says", async () => {
    const leases = { owner: 'p1' };
    const ledger = { accountId: 'u1' } as PlatformAccountRow;
    expect(await reasonOf({ ...running, leases, platformAccount: ledger })).toBe('TRADING_HALTED');
    expect(await reasonOf({ ...running, leases })).toBe('NOT_LINKED');
    const since = new Date('2026-11-21T11:00:00Z');
    const held = rig({
      ...running,
      leases,
      leaseHolder: { owner: 'p2', since },
      projection: { status: { idleReason: 'DAILY_LOSS_LIMIT' } } as unknown as AccountProjection,
    });
    expect(await held.service.robotStatus(settingsOf())).toEqual({
      bot_on: true,
      trading: false,
      idleReason: 'DAILY_LOSS_LIMIT',
      holder: { process: 'p2', since: since.toISOString() },
    });
  });
});

describe('TradingService: figures in the right currency', () => {
  it("sums up the day with the account's own operations only (decision 097)", async () => {
    const projection = {
      currency: 'EUR',
      account: { balance: 100, equity: 101 },
      trades: [],
    } as unknown as AccountProjection;
    const { service } = rig({
      link: broker,
      projection,
      closed: [
        trade('ct44-1', { profitCents: 500, currency: 'EUR' }),
        trade('ct44-2', { profitCents: -200, currency: 'EUR' }),
        trade('P3', { profitCents: 9_900, currency: 'USD' }),
      ],
    });
    expect(await service.dayFigures('u1', 0)).toEqual({
      currency: 'EUR',
      closed: 2,
      won: 1,
      lost: 1,
      profit: 3,
      balance: 100,
      equity: 101,
      open: 0,
    });
  });

  it("draws no built-in ledger in a broker account's equity curve, only its equity now", async () => {
    const projection = {
      currency: 'EUR',
      account: { equity: 250 },
      trades: [],
    } as unknown as AccountProjection;
    const brokerCurve = await rig({ link: broker, projection }).service.equityCurve(user, 'all');
    expect(brokerCurve).toEqual([{ time: robotNow / 1000, value: 250 }]);
    const builtIn = await rig({ projection }).service.equityCurve(user, 'all');
    expect(builtIn.map((point) => point.value)).toEqual([10_000, 10_010, 250]);
  });

  it('says untradable symbols do not apply to the built-in platform', async () => {
    expect(await rig().service.untradableSymbols(user)).toEqual({
      applicable: false,
      symbols: null,
    });
    expect(await rig({ link: broker }).service.untradableSymbols(user)).toEqual({
      applicable: true,
      symbols: null,
    });
  });
});
