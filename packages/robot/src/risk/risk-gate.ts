import { categories, type Category } from '@tradebot/contract';
import type { AccountFigures } from '../broker/broker-adapter';
import type { Instrument } from '../instruments/instrument';
import type { Cents } from '../money/minor-units';
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

export interface RiskCheck {
  readonly tradingState: TradingState;
  readonly settings: RobotSettings;
  readonly instrument: Instrument;
  readonly marketOpen: boolean;
  readonly signal: Signal;
  readonly minimumEdge: number;
  readonly account: AccountFigures;
  /** Margin of this account's orders that are sent but not yet filled or rejected. */
  readonly reservedMarginCents: Cents;
  /** An open position or a pending order on this instrument already. */
  readonly instrumentBusy: boolean;
  /** Equity at the first evaluation of the current UTC day. */
  readonly dayStartEquityCents: Cents;
  /** Margin in cents of `units` at the entry price (notional / leverage). */
  readonly marginFor: (units: number) => Cents;
  /** Margin in cents of one unit, for sizing. */
  readonly marginPerUnitCents: number;
  /** Profit in cents of one unit closed at the take-profit (the gain in USD, times 100). */
  readonly profitPerUnitCents: number;
}

export type RiskDecision =
  | {
      readonly allowed: true;
      readonly units: number;
      readonly marginCents: Cents;
      /** Used margin, pending orders included, once this order is in. */
      readonly usedMarginAfterCents: Cents;
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

const deny = (reason: DenialReason): RiskDecision => denials[reason];

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

/**
 * What every account's check of one signal shares. The engine builds it once per tick and
 * passes the per-account figures separately, so a fan-out to thousands of accounts allocates
 * no argument object per account.
 */
export type SignalRiskContext = Pick<
  RiskCheck,
  | 'instrument'
  | 'marketOpen'
  | 'signal'
  | 'minimumEdge'
  | 'marginFor'
  | 'marginPerUnitCents'
  | 'profitPerUnitCents'
> & {
  /** `categoryBit(instrument.category)`. */
  readonly categoryBit: number;
};

/**
 * The gate every order passes (nautilus' RiskEngine). Sizing targets a fraction of free margin
 * (10% at level 1, spec §1, §9), and no order may take the margin of all open operations,
 * pending ones included, above 50% of equity (spec §1, §9).
 */
export type CheapRiskCheck = Pick<
  RiskCheck,
  | 'tradingState'
  | 'settings'
  | 'instrument'
  | 'marketOpen'
  | 'signal'
  | 'minimumEdge'
  | 'instrumentBusy'
>;

/**
 * The checks that need no account figures. The engine runs them before it reads the account,
 * which keeps a tick's fan-out to thousands of accounts cheap.
 */
export function precheckRisk(check: CheapRiskCheck): DenialReason | undefined {
  return precheckAccount(
    { ...check, categoryBit: categoryBit(check.instrument.category) },
    check.tradingState,
    riskSettingsOf(check.settings),
    check.instrumentBusy,
  );
}

/** `precheckRisk` with the tick's shared context and the account's inputs apart. */
export function precheckAccount(
  context: Pick<SignalRiskContext, 'marketOpen' | 'signal' | 'minimumEdge' | 'categoryBit'>,
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

export function evaluateRisk(check: RiskCheck): RiskDecision {
  const cheap = precheckRisk(check);
  if (cheap) return deny(cheap);
  return sizeOrder(
    check,
    riskProfile(check.settings.risk),
    check.account,
    check.reservedMarginCents,
    check.dayStartEquityCents,
  );
}

/**
 * The account-figure half of `evaluateRisk`, for an account that passed `precheckAccount` with
 * the same context: daily loss limit, free margin, exposure cap and sizing.
 */
export function sizeOrder(
  check: Pick<
    SignalRiskContext,
    'instrument' | 'marginFor' | 'marginPerUnitCents' | 'profitPerUnitCents'
  >,
  profile: RiskProfile,
  account: AccountFigures,
  reservedMarginCents: Cents,
  dayStartEquityCents: Cents,
): RiskDecision {
  const { instrument } = check;
  const equity = account.equityCents;
  if (dailyLossLimitReached(profile, equity, dayStartEquityCents)) {
    return deny('DAILY_LOSS_LIMIT');
  }
  const freeMargin = account.freeMarginCents - reservedMarginCents;
  if (freeMargin <= 0) return deny('INSUFFICIENT_FREE_MARGIN');

  const usedBefore = account.usedMarginCents + reservedMarginCents;
  const capCents = exposureCapCents(profile, equity);
  if (usedBefore >= capCents) return deny('EXPOSURE_CAP_REACHED');

  // Round to the nearest step so that, over many orders, the margin averages the target.
  const targetUnits = (profile.marginFractionPerOperation * freeMargin) / check.marginPerUnitCents;
  const step = instrument.unitStep;
  let units = roundToStep(targetUnits, step, false);
  if (units <= 0) return deny('SIZE_BELOW_MINIMUM');
  let margin = check.marginFor(units);
  if (usedBefore + margin > capCents || margin > freeMargin) {
    // Trim to what still fits under the cap; if not even one step fits, the cap is reached.
    const room = Math.min(capCents - usedBefore, freeMargin) / check.marginPerUnitCents;
    units = roundToStep(Math.min(targetUnits, room), step, true);
    margin = check.marginFor(units);
    if (units <= 0 || usedBefore + margin > capCents) return deny('EXPOSURE_CAP_REACHED');
    if (margin > freeMargin) return deny('INSUFFICIENT_FREE_MARGIN');
  }
  // An order that cannot earn a cent at its take-profit would close "in profit" at $0.00: it
  // only takes risk (its stop-loss is five times as far) and is not sent.
  if (units * check.profitPerUnitCents < 1) return deny('PROFIT_BELOW_ONE_CENT');
  return { allowed: true, units, marginCents: margin, usedMarginAfterCents: usedBefore + margin };
}

/** The daily loss limit's test: equity down by the profile's share of the day's start. */
export function dailyLossLimitReached(
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
export function exposureCapCents(profile: RiskProfile, equityCents: Cents): number {
  return profile.exposureCap * equityCents * (1 - capSafetyMargin);
}

/**
 * Room under the cap below which an account counts as at its cap: 1% of equity, a tenth of the
 * smallest normal order (10% of free margin at level 1). Sizing trims the last order to the
 * room left, so an account at its cap is left with a few cents of room, not none.
 */
export const exposureCapSlack = 0.01;

/** Whether the account's margin, pending orders included, is at the cap (see exposureCapSlack). */
export function exposureCapReached(
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
