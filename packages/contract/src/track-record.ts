import { z } from './zod';
import { dataEnvelope } from './envelope';
import { text } from './text';
import { equityPointSchema, tradeRowSchema } from './trading';

/**
 * The public track record (issue 12; docs/decisions/060-track-record.md): the robot's own
 * account at the built-in platform, every operation since it opened, and the figures that say
 * whether it pays. Money in USD; rates as shares (0-1); a figure that cannot be measured yet
 * (no operation, no loss) is null.
 */

export const trackRecordPageSize = { default: 50, max: 200 } as const;

/** GET track-record: `before` (the previous page's `nextCursor`) continues the list. */
export const trackRecordQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'validation.invalidValue' })
    .int({ error: 'validation.invalidValue' })
    .min(1, { error: 'validation.invalidValue' })
    .max(trackRecordPageSize.max, { error: 'validation.invalidValue' })
    .default(trackRecordPageSize.default),
  before: text()
    .trim()
    .max(200, { error: 'validation.invalidValue' })
    .regex(/^\d{1,13}:[\w.-]{1,100}$/, { error: 'validation.invalidValue' })
    .optional(),
});
export type TrackRecordQuery = z.input<typeof trackRecordQuerySchema>;

/**
 * The model's forecasts on the operations whose outcome the market decided (take-profit or
 * stop-loss first), scored against two baselines: a coin flip, and the base rate (the share of
 * take-profits among the operations closed before each one, 0.5 for the first).
 */
/**
 * One row of the calibration table (decision 093): the scored operations in ten groups of equal
 * size by the probability claimed at entry, smallest first.
 */
export const calibrationRowSchema = z.object({
  /** 1 to 10. */
  decile: z.number().int(),
  /** The mean probability of take-profit claimed in the group. */
  claimed: z.number(),
  /** The share of the group that reached its take-profit. */
  hit: z.number(),
  count: z.number().int(),
});
export type CalibrationRow = z.infer<typeof calibrationRowSchema>;

export const trackRecordModelSchema = z.object({
  forecasts: z.number().int(),
  accuracy: z.number().nullable(),
  brierScore: z.number().nullable(),
  coinFlipAccuracy: z.number(),
  coinFlipBrierScore: z.number(),
  /** Share of take-profits among the scored operations. */
  baseRate: z.number().nullable(),
  baseRateAccuracy: z.number().nullable(),
  baseRateBrierScore: z.number().nullable(),
  /** The mean probability of take-profit the model claimed on them. */
  meanProbability: z.number().nullable(),
  /** Claimed against hit by decile of the claim; empty until an operation is scored. */
  calibration: z.array(calibrationRowSchema),
});
export type TrackRecordModel = z.infer<typeof trackRecordModelSchema>;

export const trackRecordSummarySchema = z.object({
  /** When the robot's account opened: the record covers everything since. ISO 8601 UTC. */
  startedAt: z.string(),
  startingBalance: z.number(),
  /** startingBalance + profit. */
  balance: z.number(),
  /** Realised profit or loss of the closed operations. */
  profit: z.number(),
  operations: z.number().int(),
  open: z.number().int(),
  closed: z.number().int(),
  /** Closed with a profit. */
  wins: z.number().int(),
  /** Closed with no profit. */
  losses: z.number().int(),
  winRate: z.number().nullable(),
  averageWin: z.number().nullable(),
  /** A positive amount. */
  averageLoss: z.number().nullable(),
  /** averageLoss / (averageWin + averageLoss): the win rate at which the measured sizes pay. */
  breakEvenWinRate: z.number().nullable(),
  /** The TP/SL geometry's own break-even rate, averaged over the operations at entry. */
  geometryBreakEvenRate: z.number().nullable(),
  model: trackRecordModelSchema,
});
export type TrackRecordSummary = z.infer<typeof trackRecordSummarySchema>;

/** How often the robot looked at the recorded quotes: every quote, once a second or once a minute. */
export const realQuotesCadences = ['quote', '1s', '1min'] as const;
export type RealQuotesCadence = (typeof realQuotesCadences)[number];

/**
 * The same robot on real recorded quotes (issue 36; decisions 125 and 142): figures the server
 * computes in the background from a folder of recorded quotes its operator points it at
 * (RECORDED_QUOTES_DIR). The quotes themselves are never sent.
 */
export const realQuotesReportSchema = z.discriminatedUnion('status', [
  /** This server has no recorded quotes to run the robot on (or could not read them). */
  z.object({ status: z.literal('unavailable') }),
  /** Being computed: `progress` is the share of the quotes replayed so far (0-1). */
  z.object({ status: z.literal('computing'), progress: z.number() }),
  z.object({
    status: z.literal('ready'),
    /** Who recorded the quotes, as the operator names them (RECORDED_QUOTES_SOURCE). */
    source: z.string(),
    /** The first and the last quote replayed, ISO 8601 UTC. */
    from: z.string(),
    to: z.string(),
    /** Catalogue symbols, in the catalogue's order. */
    instruments: z.array(z.string()),
    /** Quotes read (every one the files hold in the dates, at any cadence). */
    quotes: z.number().int(),
    cadence: z.enum(realQuotesCadences),
    /** The risk level the robot ran at (1-5). */
    risk: z.number().int(),
    startingBalanceUsd: z.number(),
    operations: z.number().int(),
    /** Closed with a profit. */
    wins: z.number().int(),
    /** Realised plus unrealised profit at the last quote, USD. */
    resultUsd: z.number(),
    /** Share of market-open minutes in which the robot said it had no edge; null with none. */
    noEdgeShare: z.number().nullable(),
    /**
     * 1 - the model's Brier score / the base rate's, on its out-of-sample forecasts: above 0 it
     * forecasts better than always saying the base rate. Null with no forecast scored.
     */
    brierSkill: z.number().nullable(),
    /** Forecasts the skill was measured on. */
    forecasts: z.number().int(),
    /** When the server computed it, ISO 8601 UTC. */
    computedAt: z.string(),
  }),
]);
export type RealQuotesReport = z.infer<typeof realQuotesReportSchema>;

export const trackRecordSchema = z.object({
  /** Whether the robot runs in this server (ROBOT_ENABLED). */
  running: z.boolean(),
  /** null until the robot's account opened. */
  summary: trackRecordSummarySchema.nullable(),
  /** Every operation, open or closed, newest opened first; one page. */
  operations: z.array(tradeRowSchema),
  /** Pass as `before` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
  /** The balance at the start and after each closure (thinned to at most 500 points). */
  equity: z.array(equityPointSchema),
  /** The same robot on real recorded quotes, beside this record on the simulated market. */
  realQuotes: realQuotesReportSchema,
});
export type TrackRecord = z.infer<typeof trackRecordSchema>;
export const trackRecordResponseSchema = dataEnvelope(trackRecordSchema);
