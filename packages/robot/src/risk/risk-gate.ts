import { categories, type Category } from '@tradebot/contract';
import type { AccountFigures, BrokerAdapter } from '../broker/broker-adapter';
import type { Instrument } from '../instruments/instrument';
import { dollarsToCentsRoundedUp, type Cents } from '../money/minor-units';
import { isCategoryEnabled, type RobotSettings } from '../settings/robot-settings';
import type { Signal } from '../strategy/strategy';
import { riskProfile, type RiskProfile } from './risk-profile';

/** The engine-wide trading state (nautilus' TradingState, without REDUCING). */
export type TradingState = 'ACTIVE' | 'HALTED';

/** Why the risk gate refused an order. Tests assert these; the dashboard translates them. */
export const denialReasons = [
  'TRADING_HALTED',
  'ROBOT_OFF',
  'CATEGORY_DISABLED',
  'MARKET_CLOSED',
  'POSITION_ALREADY_OPEN',
  'SIGNAL_BELOW_BREAK_EVEN',
  'DAILY_LOSS_LIMIT',
  'INSUFFICIENT_FREE_MARGIN',
  'EXPOSURE_CAP_REACHED',
  'SIZE_BELOW_MINIMUM',
  'PROFIT_BELOW_ONE_CENT',
] as const;
export type DenialReason = (typeof denialReasons)[number];

export type RiskDecision =
  | {
      readonly allowed: true;
      readonly units: number;
      readonly marginCents: Cents;
      /** Used margin, pending orders included, once this order is in. */
      readonly usedMarginAfterCents: Cents;
      /** The account's equity the decision was taken on. */
      readonly equityCents: Cents;
      /** Free margin the decision was taken on, less the margin of the pending orders. */
      readonly freeMarginCents: Cents;
    }
  | { readonly allowed: false; readonly reason: DenialReason };

const capSafetyMargin = 0.002;

/** One shared, frozen decision per reason: a denial allocates nothing. */
const denials: Readonly<Record<DenialReason, RiskDecision>> = Object.freeze({
  TRADING_HALTED: Object.freeze({ allowed: false, reason: 'TRADING_HALTED' }),
  ROBOT_OFF: Object.freeze({ allowed: false, reason: 'ROBOT_OFF' }),
  CATEGORY_DISABLED: Object.freeze({ allowed: false, reason: 'CATEGORY_DISABLED' }),
  MARKET_CLOSED: Object.freeze({ allowed: false, reason: 'MARKET_CLOSED' }),
  POSITION_ALREADY_OPEN: Object.freeze({ allowed: false, reason: 'POSITION_ALREADY_OPEN' }),
  SIGNAL_BELOW_BREAK_EVEN: Object.freeze({ allowed: false, reason: 'SIGNAL_BELOW_BREAK_EVEN' }),
  DAILY_LOSS_LIMIT: Object.freeze({ allowed: false, reason: 'DAILY_LOSS_LIMIT' }),
  INSUFFICIENT_FREE_MARGIN: Object.freeze({ allowed: false, reason: 'INSUFFICIENT_FREE_MARGIN' }),
  EXPOSURE_CAP_REACHED: Object.freeze({ allowed: false, reason: 'EXPOSURE_CAP_REACHED' }),
  SIZE_BELOW_MINIMUM: Object.freeze({ allowed: false, reason: 'SIZE_BELOW_MINIMUM' }),
  PROFIT_BELOW_ONE_CENT: Object.freeze({ allowed: false, reason: 'PROFIT_BELOW_ONE_CENT' }),
} as const);

/** One bit per category, for `AccountRiskSettings.categoryMask`. */
export function categoryBit(category: Category): number {
  return 1 << categories.indexOf(category);
}

/**
 * An account's robot settings reduced to what the gate reads per order: flat fields, so that
 * the engine keeps them on its per-account record and a fan-out to thousands of accounts does
 * not chase two more objects per account (decision 025).
 */
export interface AccountRiskSettings {
  readonly botOn: boolean;
  /** `categoryBit` of every enabled category; every bit when `all` is on. */
  readonly categoryMask: number;
  readonly profile: RiskProfile;
}

export function riskSettingsOf(settings: RobotSettings): AccountRiskSettings {
  let categoryMask = 0;
  for (const category of categories) {
    if (isCategoryEnabled(settings, category)) categoryMask |= categoryBit(category);
  }
  return { botOn: settings.bot_on, categoryMask, profile: riskProfile(settings.risk) };
}

/** Margin and profit per unit, in hundredths of the account's currency, for sizing. */
export interface SizingInputs {
  readonly instrument: Instrument;
  /** Margin in cents of `units` at the entry price (notional / leverage). */
  readonly marginFor: (units: number) => Cents;
  /** Margin in cents of one unit, for sizing. */
  readonly marginPerUnitCents: number;
  /** Profit in cents of one unit closed at the take-profit (the gain, times 100). */
  readonly profitPerUnitCents: number;
}

/**
 * What every account's check of one signal shares. The engine builds it once per tick and
 * passes each account's record separately, so a fan-out to thousands of accounts allocates no
 * argument object per account. Its sizing is in USD, the built-in platform's currency.
 */
export interface SignalRiskContext extends SizingInputs {
  readonly signal: Signal;
  readonly marketOpen: boolean;
  /** Margin above break-even the gate demands of a signal (the strategy's own rule). */
  readonly minimumEdge: number;
  /** `categoryBit(instrument.category)`. */
  readonly categoryBit: number;
  /** The tick's UTC day number, for the daily loss limit. */
  readonly day: number;
}

/** What the gate reads of an account besides the broker's figures: the engine's record of it. */
export interface RiskAccount extends AccountRiskSettings {
  readonly accountId: string;
  /** Margin of this account's orders that are sent but not yet filled or rejected. */
  readonly reservedMarginCents: Cents;
  /** The UTC day `dayStartEquityCents` belongs to. */
  readonly dayNumber: number;
  /** Equity at the first evaluation of that day: the daily loss limit's base. */
  readonly dayStartEquityCents: Cents;
}

export interface RiskGateDependencies<A extends RiskAccount> {
  /**
   * The broker port: the account's figures, read only for an account that passed the cheap
   * checks, and for an account in its own currency its rate and leverage (decision 097).
   */
  readonly broker: Pick<
    BrokerAdapter,
    'accountFigures' | 'quoteToAccount' | 'accountLeverage' | 'symbolLeverage'
  >;
  /** The engine-wide trading state, read on every evaluation. */
  readonly control: { readonly state: TradingState };
  /**
   * The first evaluation of a UTC day sets the daily loss limit's base to the equity read; the
   * engine keeps it on the account's record and durably (a restart that day finds it again).
   */
  readonly dayStarted: (account: A, day: number, equityCents: Cents) => void;
}

/** An account's standing against the limits on its figures, for its status (not an order). */
export type RiskStanding =
  'NO_FIGURES' | 'WITHIN_LIMITS' | 'DAILY_LOSS_LIMIT' | 'EXPOSURE_CAP_REACHED';

/**
 * The gate every order passes (nautilus' RiskEngine), and the engine's one way into it
 * (decision 099). Sizing targets a fraction of free margin (10% at level 1, spec §1, §9), and no
 * order may take the margin of all open operations, pending ones included, above 50% of equity
 * (spec §1, §9).
 */
export class RiskGate<A extends RiskAccount = RiskAccount> {
  constructor(private readonly deps: RiskGateDependencies<A>) {}

  /**
   * The decision on one account's order for a signal. The checks that need no figures run
   * first (trading state, robot, category, market hours, one operation per instrument, the
   * signal's edge), so a tick's fan-out to thousands of accounts stays cheap; only an account
   * that passes them has its figures read at the broker. Then the daily loss limit, free margin,
   * the exposure cap and sizing. Undefined when there is nothing to decide on yet: the broker
   * does not know the account, or cannot yet value the quote currency in the account's own.
   */
  evaluate(
    context: SignalRiskContext,
    account: A,
    instrumentBusy: boolean,
  ): RiskDecision | undefined {
    const cheap = precheck(context, this.deps.control.state, account, instrumentBusy);
    if (cheap) return denials[cheap];
    const figures = this.deps.broker.accountFigures(account.accountId);
    if (!figures) return undefined;
    const sizing = this.accountSizing(account.accountId, context);
    if (!sizing) return undefined;
    let dayStartEquityCents = account.dayStartEquityCents;
    if (account.dayNumber !== context.day) {
      dayStartEquityCents = figures.equityCents;
      this.deps.dayStarted(account, context.day, dayStartEquityCents);
    }
    return sizeOrder(
      sizing,
      account.profile,
      figures,
      account.reservedMarginCents,
      dayStartEquityCents,
    );
  }

  /**
   * Where the account stands against the limits on its figures, for its idle reason: the daily
   * loss limit once `day` has its base, then the exposure cap, counted as reached when less
   * than `exposureCapSlack` of equity is left under it.
   */
  standing(account: A, day: number): RiskStanding {
    const figures = this.deps.broker.accountFigures(account.accountId);
    if (!figures) return 'NO_FIGURES';
    if (
      account.dayNumber === day &&
      dailyLossLimitReached(account.profile, figures.equityCents, account.dayStartEquityCents)
    ) {
      return 'DAILY_LOSS_LIMIT';
    }
    if (exposureCapReached(account.profile, figures, account.reservedMarginCents)) {
      return 'EXPOSURE_CAP_REACHED';
    }
    return 'WITHIN_LIMITS';
  }

  /**
   * The sizing inputs in the account's own currency, when the broker values the quote currency
   * per account (decision 097); the tick's shared USD ones otherwise. Undefined while the broker
   * has no conversion: nothing is sized on a guessed rate.
   */
  private accountSizing(accountId: string, context: SignalRiskContext): SizingInputs | undefined {
    const broker = this.deps.broker;
    if (broker.quoteToAccount === undefined) return context;
    const rate = broker.quoteToAccount(accountId, context.instrument.symbol);
    if (rate === undefined || !(rate > 0)) return undefined;
    const own =
      broker.symbolLeverage?.(accountId, context.instrument.symbol) ??
      broker.accountLeverage?.(accountId);
    const leverage =
      own !== undefined && own > 0
        ? Math.min(own, context.instrument.leverage)
        : context.instrument.leverage;
    return sizingInputs(context.instrument, context.signal, rate, leverage);
  }
}

/**
 * Margin and profit per unit in hundredths of the account's currency, `accountPerQuote` being
 * one unit of the instrument's quote currency in that currency, at `leverage` (the catalogue's
 * unless the account's own is lower).
 */
export function sizingInputs(
  instrument: Instrument,
  signal: Signal,
  accountPerQuote: number,
  leverage = instrument.leverage,
): SizingInputs {
  const entryPrice = signal.geometry.entryPrice;
  return {
    instrument,
    marginPerUnitCents: (entryPrice * accountPerQuote * 100) / leverage,
    profitPerUnitCents: signal.geometry.gain * accountPerQuote * 100,
    marginFor: (units: number) =>
      dollarsToCentsRoundedUp((units * entryPrice * accountPerQuote) / leverage),
  };
}

/** The checks that need no account figures, in the order their reasons are given. */
function precheck(
  context: SignalRiskContext,
  tradingState: TradingState,
  account: AccountRiskSettings,
  instrumentBusy: boolean,
): DenialReason | undefined {
  if (tradingState === 'HALTED') return 'TRADING_HALTED';
  if (!account.botOn) return 'ROBOT_OFF';
  if ((account.categoryMask & context.categoryBit) === 0) return 'CATEGORY_DISABLED';
  if (!context.marketOpen) return 'MARKET_CLOSED';
  if (instrumentBusy) return 'POSITION_ALREADY_OPEN';
  const { signal } = context;
  if (signal.probability < signal.geometry.breakEvenProbability + context.minimumEdge) {
    return 'SIGNAL_BELOW_BREAK_EVEN';
  }
  return undefined;
}

/**
 * The account-figure half of the gate, for an account that passed `precheck`: daily loss
 * limit, free margin, exposure cap and sizing.
 */
function sizeOrder(
  check: SizingInputs,
  profile: RiskProfile,
  account: AccountFigures,
  reservedMarginCents: Cents,
  dayStartEquityCents: Cents,
): RiskDecision {
  const { instrument } = check;
  const equity = account.equityCents;
  if (dailyLossLimitReached(profile, equity, dayStartEquityCents)) {
    return denials.DAILY_LOSS_LIMIT;
  }
  const freeMargin = account.freeMarginCents - reservedMarginCents;
  if (freeMargin <= 0) return denials.INSUFFICIENT_FREE_MARGIN;

  const usedBefore = account.usedMarginCents + reservedMarginCents;
  const capCents = exposureCapCents(profile, equity);
  if (usedBefore >= capCents) return denials.EXPOSURE_CAP_REACHED;

  // Round to the nearest step so that, over many orders, the margin averages the target.
  const targetUnits = (profile.marginFractionPerOperation * freeMargin) / check.marginPerUnitCents;
  const step = instrument.unitStep;
  let units = roundToStep(targetUnits, step, false);
  if (units <= 0) return denials.SIZE_BELOW_MINIMUM;
  let margin = check.marginFor(units);
  if (usedBefore + margin > capCents || margin > freeMargin) {
    // Trim to what still fits under the cap; if not even one step fits, the cap is reached.
    const room = Math.min(capCents - usedBefore, freeMargin) / check.marginPerUnitCents;
    units = roundToStep(Math.min(targetUnits, room), step, true);
    margin = check.marginFor(units);
    if (units <= 0 || usedBefore + margin > capCents) return denials.EXPOSURE_CAP_REACHED;
    if (margin > freeMargin) return denials.INSUFFICIENT_FREE_MARGIN;
  }
  // An order that cannot earn a cent at its take-profit would close "in profit" at $0.00: it
  // only takes risk (its stop-loss is five times as far) and is not sent.
  if (units * check.profitPerUnitCents < 1) return denials.PROFIT_BELOW_ONE_CENT;
  return {
    allowed: true,
    units,
    marginCents: margin,
    usedMarginAfterCents: usedBefore + margin,
    equityCents: equity,
    freeMarginCents: freeMargin,
  };
}

/** The daily loss limit's test: equity down by the profile's share of the day's start. */
function dailyLossLimitReached(
  profile: RiskProfile,
  equityCents: Cents,
  dayStartEquityCents: Cents,
): boolean {
  return dayStartEquityCents - equityCents >= profile.dailyLossLimit * dayStartEquityCents;
}

/**
 * The most margin all open and pending operations may use, in cents: a hair under the cap,
 * since the broker prices the margin at fill time, and a currency conversion may move by a few
 * basis points between decision and fill.
 */
function exposureCapCents(profile: RiskProfile, equityCents: Cents): number {
  return profile.exposureCap * equityCents * (1 - capSafetyMargin);
}

/**
 * Room under the cap below which an account counts as at its cap: 1% of equity, a tenth of the
 * smallest normal order (10% of free margin at level 1). Sizing trims the last order to the
 * room left, so an account at its cap is left with a few cents of room, not none.
 */
export const exposureCapSlack = 0.01;

/** Whether the account's margin, pending orders included, is at the cap (see exposureCapSlack). */
function exposureCapReached(
  profile: RiskProfile,
  account: AccountFigures,
  reservedMarginCents: Cents,
): boolean {
  const used = account.usedMarginCents + reservedMarginCents;
  return (
    used >= exposureCapCents(profile, account.equityCents) - exposureCapSlack * account.equityCents
  );
}

/** To the nearest step, or down with `down` (a flag, not a function: this runs per order). */
function roundToStep(value: number, step: number, down: boolean): number {
  const steps = down ? Math.floor(value / step + 1e-9) : Math.round(value / step + 1e-9);
  // Steps are powers of ten (or simple multiples); scale back through an integer so that
  // 3 * 0.1 gives 0.3, not 0.30000000000000004.
  const inverse = Math.round(1 / step);
  return inverse >= 1 && Math.abs(inverse * step - 1) < 1e-12 ? steps / inverse : steps * step;
}
