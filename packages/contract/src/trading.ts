import { z } from './zod';
import { categories } from './categories';
import { categoriesEnabledSchema } from './accounts';
import { dataEnvelope } from './envelope';
import { languageSchema } from './common-schemas';
import { text } from './text';
import { orderRejectionSchema } from './rejections';
import { timeZoneSchema } from './notifications';

/**
 * The live account (spec §3 Trading data, §7 get-all-data and settings, §4 Real-time updates).
 * Field names the spec gives (Amount, CloseTime, Cmd, ...) keep its spelling; what the screens
 * need beyond it is added in camelCase without changing the spec's shape
 * (docs/decisions/040-live-account-contract.md).
 */

/** spec §2 Dashboard: history periods. */
export const historyPeriods = ['day', '3days', 'week', 'month', 'all'] as const;
export type HistoryPeriod = (typeof historyPeriods)[number];
export const historyPeriodMs: Record<Exclude<HistoryPeriod, 'all'>, number> = {
  day: 86_400_000,
  '3days': 3 * 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
};

export const historyPageSize = { default: 100, max: 1000 } as const;

/**
 * GET get-all-data: `period` filters the closed history, `limit` pages it and `before` (the
 * `nextCursor` of the previous page) continues it. Newest first.
 */
export const getAllDataQuerySchema = z.object({
  period: z.enum(historyPeriods, { error: 'validation.invalidValue' }).default('all'),
  limit: z.coerce
    .number({ error: 'validation.invalidValue' })
    .int({ error: 'validation.invalidValue' })
    .min(1, { error: 'validation.invalidValue' })
    .max(historyPageSize.max, { error: 'validation.invalidValue' })
    .default(historyPageSize.default),
  before: text()
    .trim()
    .max(200, { error: 'validation.invalidValue' })
    .regex(/^[\w.:-]+$/, { error: 'validation.invalidValue' })
    .optional(),
});
export type GetAllDataQuery = z.input<typeof getAllDataQuerySchema>;

/**
 * The currency every amount of the account is in (account figures, Profit, margin), ISO 4217
 * (decision 097): USD on the simulated platform, the broker account's deposit currency on a
 * linked one (BRL, MXN, EUR...). Null while a linked broker has not said it yet (then no figures
 * are shown either).
 */
export const accountCurrencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .nullable();

/** `manual`: the user closed that one operation (decision 152). */
export const closeReasons = ['tp', 'sl', 'closeout', 'kill', 'manual'] as const;
export type CloseReasonCode = (typeof closeReasons)[number];

/**
 * One operation. The spec's raw fields: Amount in lots, Cmd 0 = buy and 1 = sale, times as
 * ISO 8601 UTC, Profit in the account currency (USD on the simulated platform; decisions 023,
 * 097); for an open operation Profit is its live mark.
 */
export const tradeRowSchema = z.object({
  Amount: z.number(),
  CloseTime: z.string().nullable(),
  Cmd: z.union([z.literal(0), z.literal(1)]),
  Icon1: z.string(),
  Icon2: z.string(),
  OpenTime: z.string(),
  OutputName: z.string(),
  Profit: z.number(),
  /** The platform's position id. */
  id: z.string(),
  symbol: z.string(),
  category: z.enum(categories),
  side: z.enum(['buy', 'sale']),
  units: z.number(),
  openPrice: z.number(),
  closePrice: z.number().nullable(),
  takeProfit: z.number(),
  stopLoss: z.number(),
  status: z.enum(['open', 'closed']),
  closeReason: z.enum(closeReasons).nullable(),
  /** The model's probability of reaching the take-profit, at entry. */
  probability: z.number(),
  /** The win rate at which this trade's TP/SL geometry breaks even. */
  breakEvenProbability: z.number(),
  /** Margin held while open, in the account currency. */
  margin: z.number(),
  /**
   * What the position is worth, units × opening price, in `currency` (decision 156): the money
   * behind its lots. Null where that needs an exchange rate (a cross pair, a share quoted in
   * another currency) or the currency is not known.
   */
  value: z.number().nullable(),
  /**
   * The currency of Profit and margin (decision 097): USD for the simulated platform's
   * operations, the broker account's for a linked one's; null for a former broker link's, whose
   * currency is not known any more.
   */
  currency: accountCurrencySchema,
});
export type TradeRow = z.infer<typeof tradeRowSchema>;

/** spec §3 account {balance, freeMargin, equity, earnings}, in the account currency (decision 097), plus what the dashboard needs. */
export const tradingAccountSchema = z.object({
  balance: z.number(),
  freeMargin: z.number(),
  equity: z.number(),
  /** equity - deposits: everything made or lost, realised or not. */
  earnings: z.number(),
  deposits: z.number(),
  usedMargin: z.number(),
  /** usedMargin / equity, 0 when equity is 0 or less. */
  exposure: z.number(),
  /** The published cap on open operations (spec §1): 0.5. */
  exposureCap: z.number(),
});
export type TradingAccount = z.infer<typeof tradingAccountSchema>;

/**
 * Why a robot that is not trading is idle, most fundamental first. `null` when it trades
 * (it may still be waiting for a signal).
 */
export const robotIdleReasons = [
  'ROBOT_OFF',
  'NOT_AUTHORIZED',
  'NOT_LINKED',
  'NO_CATEGORY_ENABLED',
  'MARKET_CLOSED',
  'DAILY_LOSS_LIMIT',
  'EXPOSURE_CAP_REACHED',
  'TRADING_HALTED',
  /**
   * On and free to trade, but no calibrated forecast in the account's categories has cleared
   * break-even plus costs lately (decision 093): "no trade: no edge today".
   */
  'NO_EDGE',
  /**
   * A linked broker's connection is down; the robot opens nothing there until it is back
   * (decision 096). It reconnects on its own.
   */
  'BROKER_DISCONNECTED',
  /**
   * The broker refused the grant (expired or revoked): the robot opens nothing there until the
   * user links the account again (decision 096).
   */
  'BROKER_RECONNECT_NEEDED',
  /**
   * A linked broker's robot is still learning from that broker's recent prices before its first
   * decision (decision 096, amended): it opens nothing until it has.
   */
  'WARMING_UP',
] as const;
export type RobotIdleReason = (typeof robotIdleReasons)[number];

/**
 * Which robot process trades the account, and since when (decision 092, amended): the scaled
 * set-up (ROBOT_LEASES) runs several; `process` is the holder's name (host:pid:random), `since`
 * the moment it claimed the account's lease (ISO 8601, UTC).
 */
export const robotHolderSchema = z.object({
  process: z.string(),
  since: z.string().describe('ISO 8601 instant, UTC'),
});
export type RobotHolder = z.infer<typeof robotHolderSchema>;

/**
 * What the robot is doing in one market category (decision 147), the reason first:
 * - MARKET_CLOSED: none of the category's markets is open; `opensAt` the next opening when the
 *   market clock knows it (the built-in platform's hours), null otherwise (a broker's own hours);
 * - LEARNING: its model has not decided anything there yet: `outcomes` of `outcomesNeeded`
 *   learned (equal: the counts are met and it reads the last prices it held meanwhile);
 * - NO_EDGE: it looks, and its best forecast does not reach what it needs, and it has nothing
 *   open there;
 * - TRADING: its best forecast reaches it, or it has operations open there.
 */
export const categoryStates = ['MARKET_CLOSED', 'LEARNING', 'NO_EDGE', 'TRADING'] as const;
export type CategoryState = (typeof categoryStates)[number];

/**
 * The forecast with the most edge among the category's instruments at their latest prices: the
 * probability of reaching the take-profit first, the break-even rate of the trade after spread
 * (and a broker's commission), and what the robot asks before it opens (break-even plus its
 * margin for costs).
 */
export const bestForecastSchema = z.object({
  symbol: z.string(),
  probability: z.number().min(0).max(1),
  breakEvenProbability: z.number().min(0).max(1),
  requiredProbability: z.number().min(0),
});
export type BestForecast = z.infer<typeof bestForecastSchema>;

const categoryActivityBase = {
  category: z.enum(categories),
  /** The account's operations open in the category now. */
  openOperations: z.number().int().min(0),
  /** When the robot last evaluated a price of the category; null: not since it started. */
  evaluatedAt: z.iso.datetime().nullable(),
};
export const categoryActivitySchema = z.discriminatedUnion('state', [
  z.object({
    ...categoryActivityBase,
    state: z.literal('MARKET_CLOSED'),
    opensAt: z.iso.datetime().nullable(),
  }),
  z.object({
    ...categoryActivityBase,
    state: z.literal('LEARNING'),
    outcomes: z.number().int().min(0),
    outcomesNeeded: z.number().int().min(0),
  }),
  z.object({
    ...categoryActivityBase,
    state: z.literal('NO_EDGE'),
    /** Null while it has no forecast to show (it has not evaluated a price yet). */
    best: bestForecastSchema.nullable(),
  }),
  z.object({
    ...categoryActivityBase,
    state: z.literal('TRADING'),
    best: bestForecastSchema.nullable(),
  }),
]);
export type CategoryActivity = z.infer<typeof categoryActivitySchema>;

/**
 * Per category the user chose, what the robot does now (decision 147), as its clock said at
 * `asOf`: an age is `asOf - evaluatedAt` plus the time since the status arrived.
 */
export const robotActivitySchema = z.object({
  asOf: z.iso.datetime(),
  categories: z.array(categoryActivitySchema),
});
export type RobotActivity = z.infer<typeof robotActivitySchema>;

export const robotStatusSchema = z.object({
  bot_on: z.boolean(),
  trading: z.boolean(),
  idleReason: z.enum(robotIdleReasons).nullable(),
  /**
   * Only in the scaled set-up (ROBOT_LEASES): the process holding the account's lease, null
   * while none does (between a process's end and the next claim). Absent with one process.
   */
  holder: robotHolderSchema.nullable().optional(),
  /**
   * Per chosen category, what the robot does now (decision 147). Absent while no robot answers
   * for the account: off, not linked, no category chosen, halted or down.
   */
  activity: robotActivitySchema.optional(),
});
export type RobotStatus = z.infer<typeof robotStatusSchema>;

export const closedPageSchema = z.object({
  period: z.enum(historyPeriods),
  /** Closed operations in the period, all pages together. */
  total: z.number().int(),
  /** Pass as `before` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});

/**
 * Where the account the dashboard shows lives (decision 096): the built-in platform's simulated
 * money, a cTrader broker's demo account, or a live one with the user's own money.
 */
export const accountKinds = ['simulated', 'demo', 'live'] as const;
export type AccountKind = (typeof accountKinds)[number];

/**
 * Where the account's prices come from (decision 140): the built-in platform's market, either
 * the simulator (generated trends, the default) or recorded real quotes replayed in a loop (their
 * source's name and the recording's first and last days, UTC, YYYY-MM-DD); or, for a linked
 * account, the broker's own prices.
 */
export const priceSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('simulator') }),
  z.object({
    kind: z.literal('recorded'),
    source: z.string(),
    from: z.iso.date(),
    to: z.iso.date(),
  }),
  z.object({ kind: z.literal('broker') }),
]);
export type PriceSource = z.infer<typeof priceSourceSchema>;
/** The built-in platform's market: what a server's robot says it runs on. */
export type BuiltInMarket = Exclude<PriceSource, { kind: 'broker' }>;

export const tradingDataSchema = z.object({
  account: tradingAccountSchema.nullable(),
  accountKind: z.enum(accountKinds),
  /**
   * Where the account's prices come from (decision 140); null while it is not known (the
   * built-in platform's robot is down or runs in another process).
   */
  prices: priceSourceSchema.nullable(),
  accountCurrency: accountCurrencySchema,
  trades: z.array(tradeRowSchema),
  closed: z.array(tradeRowSchema),
  closedPage: closedPageSchema,
  robot: robotStatusSchema,
});
export type TradingData = z.infer<typeof tradingDataSchema>;
export const getAllDataResponseSchema = dataEnvelope(tradingDataSchema);

/** GET robot-status: what get-all-data's `robot` says, alone (decision 147). */
export const robotStatusResponseSchema = dataEnvelope(robotStatusSchema);

/** The balance after each closed operation, and the equity now: the dashboard's curve. */
export const equityCurveQuerySchema = z.object({
  period: z.enum(historyPeriods, { error: 'validation.invalidValue' }).default('all'),
});
export const equityPointSchema = z.object({
  /** Epoch seconds (what lightweight-charts reads). */
  time: z.number().int(),
  value: z.number(),
});
export const equityCurveResponseSchema = dataEnvelope(
  z.object({ points: z.array(equityPointSchema) }),
);
export type EquityPoint = z.infer<typeof equityPointSchema>;

/** CSV export of the closed history in a period (GET history-csv?period=). */
/**
 * The history CSV for a person's spreadsheet (decision 154): headers and words in `language`
 * (the user's stored language when absent), times in `time_zone` (the browser's IANA zone; UTC
 * when absent).
 */
export const historyCsvQuerySchema = equityCurveQuerySchema.extend({
  language: languageSchema.optional(),
  time_zone: timeZoneSchema.optional(),
});
export type HistoryCsvQuery = z.infer<typeof historyCsvQuerySchema>;

export const riskLevelBounds = { min: 1, max: 5 } as const;

/**
 * spec §7 POST settings: `categories_enabled` is a JSON-encoded string of the five flags
 * (`all` may come too). It is decoded and checked here, so a malformed string is a 422.
 */
export const categoriesEnabledFlagsSchema = categoriesEnabledSchema.partial({ all: true });
export const settingsRequestSchema = z.object({
  bot_on: z.boolean({ error: 'validation.invalidValue' }),
  risk: z
    .number({ error: 'validation.invalidValue' })
    .int({ error: 'validation.invalidValue' })
    .min(riskLevelBounds.min, { error: 'validation.invalidValue' })
    .max(riskLevelBounds.max, { error: 'validation.invalidValue' }),
  categories_enabled: text({ error: 'validation.invalidValue' })
    .max(500, { error: 'validation.invalidValue' })
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'validation.invalidValue' });
        return z.NEVER;
      }
    })
    .pipe(z.strictObject(categoriesEnabledFlagsSchema.shape, { error: 'validation.invalidValue' })),
  language: languageSchema.optional(),
});
export type SettingsRequest = z.input<typeof settingsRequestSchema>;

export const robotSettingsSchema = z.object({
  bot_on: z.boolean(),
  risk: z.number().int(),
  categories_enabled: categoriesEnabledSchema,
});
export type RobotSettingsView = z.infer<typeof robotSettingsSchema>;
export const settingsResponseSchema = dataEnvelope(robotSettingsSchema);

/** The user's kill switch: the robot goes off and every open operation closes at once. */
export const killSwitchResponseSchema = dataEnvelope(
  z.object({ settings: robotSettingsSchema, closed: z.number().int() }),
);

/** The path parameter of one operation: the platform's position id, as a row's `id` carries it. */
export const operationParamsSchema = z.object({
  id: text()
    .trim()
    .min(1, { error: 'validation.invalidValue' })
    .max(100, { error: 'validation.invalidValue' })
    .regex(/^[\w.-]+$/, { error: 'validation.invalidValue' }),
});
export type OperationParams = z.infer<typeof operationParamsSchema>;

/** The user closed one operation (decision 152): the row as it closed, reason `manual`. */
export const closeOperationResponseSchema = dataEnvelope(z.object({ operation: tradeRowSchema }));
export type CloseOperationResult = z.infer<typeof closeOperationResponseSchema>['data'];

/**
 * Real-time (spec §4): the event on the user's private channel. `info` is an object, or the
 * same object as a JSON string; what it carries replaces the stored values.
 */
export const realtimeEventName = 'trading-data' as const;
export const realtimeInfoSchema = z.object({
  account: tradingAccountSchema.optional(),
  /** The currency of `account` and the rows, sent with them (decision 097). */
  accountCurrency: accountCurrencySchema.optional(),
  trades: z.array(tradeRowSchema).optional(),
  closed: z.array(tradeRowSchema).optional(),
  robot: robotStatusSchema.optional(),
  /** Orders the platform refused just now, newest first (decision 101): the list shows them. */
  rejected: z.array(orderRejectionSchema).optional(),
});
export type RealtimeInfo = z.infer<typeof realtimeInfoSchema>;
export const realtimeEventSchema = z.object({
  info: z.union([realtimeInfoSchema, z.string()]),
});
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;
/** Socket.IO path, on the server's own port. */
export const realtimePath = '/core-api/realtime' as const;
/** How many closed operations a real-time `closed` carries: the newest. */
export const realtimeClosedCount = 50;
