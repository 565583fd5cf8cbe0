import { categories } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import type { AccountFigures } from '../broker/broker-adapter';
import { InstrumentCatalogue } from '../instruments/catalogue';
import type { Instrument } from '../instruments/instrument';
import { dollarsToCentsRoundedUp, type Cents } from '../money/minor-units';
import { defaultRobotSettings, type RobotSettings } from '../settings/robot-settings';
import type { Signal } from '../strategy/strategy';
import {
  RiskGate,
  categoryBit,
  riskSettingsOf,
  type RiskAccount,
  type RiskDecision,
  type SignalRiskContext,
  type TradingState,
} from './risk-gate';
import { riskProfile } from './risk-profile';
import { tradeGeometry } from './trade-geometry';

const catalogue = new InstrumentCatalogue();
const eurusd = catalogue.require('EURUSD');
const tick = { symbol: 'EURUSD', time: 0, bid: 1.1, ask: 1.1001 };
const geometry = tradeGeometry('buy', tick, eurusd);
const on: RobotSettings = {
  ...defaultRobotSettings,
  bot_on: true,
  categories_enabled: { ...defaultRobotSettings.categories_enabled, forex: true },
};
const account: AccountFigures = {
  equityCents: 1_000_000,
  usedMarginCents: 0,
  freeMarginCents: 1_000_000,
};
const marginPerUnitCents = (1.1001 * 100) / 30;

/** Everything the gate's decision depends on, flat, as the tests vary it. */
interface RiskCheck {
  readonly tradingState: TradingState;
  readonly settings: RobotSettings;
  readonly instrument: Instrument;
  readonly marketOpen: boolean;
  readonly signal: Signal;
  readonly minimumEdge: number;
  readonly account: AccountFigures;
  readonly reservedMarginCents: Cents;
  readonly instrumentBusy: boolean;
  readonly dayStartEquityCents: Cents;
  readonly marginFor: (units: number) => Cents;
  readonly marginPerUnitCents: number;
  readonly profitPerUnitCents: number;
}

function check(patch: Partial<RiskCheck> = {}): RiskCheck {
  return {
    tradingState: 'ACTIVE',
    settings: on,
    instrument: eurusd,
    marketOpen: true,
    signal: { symbol: 'EURUSD', side: 'buy', probability: 0.95, geometry, time: 0 },
    minimumEdge: 0.01,
    account,
    reservedMarginCents: 0,
    instrumentBusy: false,
    dayStartEquityCents: 1_000_000,
    marginFor: (units) => dollarsToCentsRoundedUp((units * 1.1001) / 30),
    marginPerUnitCents,
    profitPerUnitCents: geometry.gain * 100,
    ...patch,
  };
}

const day = 19_885;

/** The gate's parts for one check: the tick's context, the account's record, the figures. */
function gateFor(c: RiskCheck) {
  const figuresRead: string[] = [];
  const dayStarts: [string, number, Cents][] = [];
  const gate = new RiskGate({
    // The broker port's figures, as a broker would hand them out: a copy per read.
    broker: {
      accountFigures: (accountId) => {
        figuresRead.push(accountId);
        return { ...c.account };
      },
    },
    control: { state: c.tradingState },
    dayStarted: (account, startDay, equityCents) => {
      dayStarts.push([account.accountId, startDay, equityCents]);
    },
  });
  const context: SignalRiskContext = {
    instrument: c.instrument,
    signal: c.signal,
    marketOpen: c.marketOpen,
    minimumEdge: c.minimumEdge,
    categoryBit: categoryBit(c.instrument.category),
    day,
    marginFor: c.marginFor,
    marginPerUnitCents: c.marginPerUnitCents,
    profitPerUnitCents: c.profitPerUnitCents,
  };
  const account: RiskAccount = {
    accountId: 'a1',
    ...riskSettingsOf(c.settings),
    reservedMarginCents: c.reservedMarginCents,
    dayNumber: day,
    dayStartEquityCents: c.dayStartEquityCents,
  };
  return { gate, context, account, figuresRead, dayStarts };
}

function evaluateRisk(c: RiskCheck): RiskDecision {
  const { gate, context, account } = gateFor(c);
  const decision = gate.evaluate(context, account, c.instrumentBusy);
  if (!decision) throw new Error('no decision');
  return decision;
}

const reason = (patch: Partial<RiskCheck>) => {
  const decision = evaluateRisk(check(patch));
  return decision.allowed ? 'ALLOWED' : decision.reason;
};

describe('RiskGate.evaluate', () => {
  it('allows a sound order and sizes it at 10% of free margin at risk 1', () => {
    const decision = evaluateRisk(check());
    if (!decision.allowed) throw new Error(decision.reason);
    expect(decision.units % eurusd.unitStep).toBe(0);
    expect(Math.abs(decision.marginCents - 100_000)).toBeLessThanOrEqual(marginPerUnitCents * 500);
  });

  it('denies with a coded reason', () => {
    expect(reason({ tradingState: 'HALTED' })).toBe('TRADING_HALTED');
    expect(reason({ settings: { ...on, bot_on: false } })).toBe('ROBOT_OFF');
    expect(reason({ instrument: catalogue.require('AAPL.US') })).toBe('CATEGORY_DISABLED');
    expect(reason({ marketOpen: false })).toBe('MARKET_CLOSED');
    expect(reason({ instrumentBusy: true })).toBe('POSITION_ALREADY_OPEN');
    expect(
      reason({ signal: { ...check().signal, probability: geometry.breakEvenProbability } }),
    ).toBe('SIGNAL_BELOW_BREAK_EVEN');
    expect(
      reason({ account: { ...account, equityCents: 950_000, freeMarginCents: 950_000 } }),
    ).toBe('DAILY_LOSS_LIMIT');
    expect(
      reason({
        account: { ...account, equityCents: 990_000, usedMarginCents: 990_000, freeMarginCents: 0 },
        dayStartEquityCents: 990_000,
      }),
    ).toBe('INSUFFICIENT_FREE_MARGIN');
    expect(
      reason({ account: { ...account, usedMarginCents: 500_000, freeMarginCents: 500_000 } }),
    ).toBe('EXPOSURE_CAP_REACHED');
    expect(
      reason({
        account: { ...account, equityCents: 100, freeMarginCents: 100 },
        dayStartEquityCents: 100,
      }),
    ).toBe('SIZE_BELOW_MINIMUM');
  });

  it('counts pending orders against the cap and trims the last order to fit', () => {
    const decision = evaluateRisk(
      check({
        account: { ...account, usedMarginCents: 400_000, freeMarginCents: 600_000 },
        reservedMarginCents: 50_000,
      }),
    );
    if (!decision.allowed) throw new Error(decision.reason);
    expect(decision.usedMarginAfterCents).toBeLessThanOrEqual(500_000);
    expect(decision.marginCents).toBeLessThan(0.1 * 550_000);
  });

  it('denies an order too small to earn a cent at its take-profit', () => {
    // ARBUSD at $0.90: a unit earns a fraction of a cent at its take-profit, so an order
    // squeezed under the 50% cap to a few units would close "in profit" at $0.00.
    const arbusd = catalogue.require('ARBUSD');
    const arbTick = { symbol: 'ARBUSD', time: 0, bid: 0.9, ask: 0.9003 };
    const arbGeometry = tradeGeometry('buy', arbTick, arbusd);
    const perUnitCents = (arbTick.ask * 100) / arbusd.leverage;
    const arb = (usedMarginCents: number) =>
      reason({
        settings: { ...on, categories_enabled: { ...on.categories_enabled, cripto: true } },
        instrument: arbusd,
        signal: {
          symbol: 'ARBUSD',
          side: 'buy',
          probability: 0.99,
          geometry: arbGeometry,
          time: 0,
        },
        account: { ...account, usedMarginCents, freeMarginCents: 1_000_000 - usedMarginCents },
        marginFor: (units) => dollarsToCentsRoundedUp((units * arbTick.ask) / arbusd.leverage),
        marginPerUnitCents: perUnitCents,
        profitPerUnitCents: arbGeometry.gain * 100,
      });
    expect(arbGeometry.gain * 100).toBeLessThan(1);
    expect(arb(0)).toBe('ALLOWED');
    // Room under the cap for 3 units: 3 units earn less than a cent.
    const capCents = 0.5 * 1_000_000 * (1 - 0.002);
    expect(arb(Math.floor(capCents - 3.5 * perUnitCents))).toBe('PROFIT_BELOW_ONE_CENT');
    expect(reason({ profitPerUnitCents: 1e-6 })).toBe('PROFIT_BELOW_ONE_CENT');
  });

  it('allows all categories when `all` is on', () => {
    const all = {
      ...on,
      categories_enabled: { ...on.categories_enabled, forex: false, all: true },
    };
    expect(reason({ settings: all })).toBe('ALLOWED');
  });
});

describe('RiskGate: the cheap checks first, the account figures lazily', () => {
  it('reads the figures only for an account that passes the checks that need none', () => {
    const cheapDenials: Partial<RiskCheck>[] = [
      { tradingState: 'HALTED' },
      { settings: { ...on, bot_on: false } },
      { instrument: catalogue.require('AAPL.US') },
      { marketOpen: false },
      { instrumentBusy: true },
      { signal: { ...check().signal, probability: geometry.breakEvenProbability } },
    ];
    for (const patch of cheapDenials) {
      const c = check(patch);
      const { gate, context, account, figuresRead } = gateFor(c);
      expect(gate.evaluate(context, account, c.instrumentBusy)).toMatchObject({ allowed: false });
      expect(figuresRead).toEqual([]);
    }
    const figureDenials: Partial<RiskCheck>[] = [
      {},
      { account: { ...account, equityCents: 900_000, freeMarginCents: 900_000 } },
      { account: { ...account, usedMarginCents: 499_000, freeMarginCents: 501_000 } },
      { reservedMarginCents: 1_000_000 },
    ];
    for (const patch of figureDenials) {
      const c = check(patch);
      const { gate, context, account: record, figuresRead } = gateFor(c);
      gate.evaluate(context, record, c.instrumentBusy);
      expect(figuresRead).toEqual(['a1']);
    }
  });

  it('has nothing to decide for an account the broker does not know', () => {
    const gate = new RiskGate({
      broker: { accountFigures: () => undefined },
      control: { state: 'ACTIVE' },
      dayStarted: () => {
        throw new Error('no day starts without figures');
      },
    });
    const { context, account: record } = gateFor(check());
    expect(gate.evaluate(context, record, false)).toBeUndefined();
    expect(gate.standing(record, day)).toBe('NO_FIGURES');
  });

  it("sets a new day's loss-limit base from the figures it reads, and tells the engine", () => {
    // Down 5% from yesterday's base: denied on that day, allowed as the first check of the next.
    const c = check({
      account: { ...account, equityCents: 950_000, freeMarginCents: 950_000 },
      dayStartEquityCents: 1_000_000,
    });
    const { gate, context, account: record, dayStarts } = gateFor(c);
    expect(gate.evaluate(context, record, false)).toMatchObject({ reason: 'DAILY_LOSS_LIMIT' });
    expect(dayStarts).toEqual([]);
    const decision = gate.evaluate({ ...context, day: day + 1 }, record, false);
    expect(decision).toMatchObject({ allowed: true, equityCents: 950_000 });
    expect(dayStarts).toEqual([['a1', day + 1, 950_000]]);
  });

  it('stands at the limits an idle reason names, the exposure cap within its slack', () => {
    const standing = (patch: Partial<RiskCheck>, onDay = day) => {
      const { gate, account: record } = gateFor(check(patch));
      return gate.standing(record, onDay);
    };
    expect(standing({})).toBe('WITHIN_LIMITS');
    const down = { account: { ...account, equityCents: 950_000, freeMarginCents: 950_000 } };
    expect(standing(down)).toBe('DAILY_LOSS_LIMIT');
    // Another day's base does not count.
    expect(standing(down, day + 1)).toBe('WITHIN_LIMITS');
    // Within 1% of equity of the cap (499,000 cents, a hair under 50%) counts as at it.
    const used = (usedMarginCents: number) => ({
      account: { ...account, usedMarginCents, freeMarginCents: 1_000_000 - usedMarginCents },
    });
    expect(standing(used(489_000))).toBe('EXPOSURE_CAP_REACHED');
    expect(standing(used(488_999))).toBe('WITHIN_LIMITS');
    expect(standing({ reservedMarginCents: 489_000 })).toBe('EXPOSURE_CAP_REACHED');
  });
});

describe('riskSettingsOf', () => {
  it("keeps one bit per enabled category, every bit with `all`, and the level's profile", () => {
    const forexOnly = riskSettingsOf(on);
    expect(forexOnly.botOn).toBe(true);
    expect(forexOnly.profile).toBe(riskProfile(1));
    for (const category of categories) {
      expect((forexOnly.categoryMask & categoryBit(category)) !== 0).toBe(category === 'forex');
    }
    const all = riskSettingsOf({
      ...on,
      risk: 4,
      categories_enabled: { ...on.categories_enabled, forex: false, all: true },
    });
    for (const category of categories) {
      expect(all.categoryMask & categoryBit(category)).not.toBe(0);
    }
    expect(all.profile.level).toBe(4);
    expect(riskSettingsOf({ ...on, bot_on: false }).botOn).toBe(false);
    // Distinct bits: no two categories share one.
    expect(new Set(categories.map(categoryBit)).size).toBe(categories.length);
  });
});

describe('riskProfile', () => {
  it('commits more margin per operation at higher levels but keeps the 50% cap', () => {
    expect(riskProfile(1).marginFractionPerOperation).toBe(0.1);
    expect(riskProfile(5).marginFractionPerOperation).toBeGreaterThan(
      riskProfile(1).marginFractionPerOperation,
    );
    for (const level of [1, 2, 3, 4, 5]) expect(riskProfile(level).exposureCap).toBe(0.5);
    expect(riskProfile(0).level).toBe(1);
    expect(riskProfile(Number.NaN).level).toBe(1);
    expect(riskProfile(9).level).toBe(5);
  });
});
