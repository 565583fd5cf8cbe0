import { z } from './zod';
import { categories } from './categories';
import { dataEnvelope } from './envelope';
import { text } from './text';

/**
 * The account's refused orders and the broker symbols the robot does not trade (decision 101):
 * what the dashboard's "orders refused" and "instruments the robot does not trade" sections read.
 */

/**
 * Why an order was refused, in our words (the robot's `BrokerRejectReason`): the same on the
 * built-in platform and at a broker. A broker's own code, when it gave one, comes apart
 * (`brokerCode`).
 */
export const orderRejectionReasons = [
  'UNKNOWN_ACCOUNT',
  'UNKNOWN_INSTRUMENT',
  'MARKET_CLOSED',
  'NO_PRICE',
  'INVALID_STOPS',
  'INVALID_SIZE',
  'INSUFFICIENT_MARGIN',
  /** The broker refused the grant: the user must link the account again. */
  'NOT_AUTHORISED',
  /** The broker refused for a reason of its own: `brokerCode` names it. */
  'BROKER_REJECTED',
] as const;
export type OrderRejectionReason = (typeof orderRejectionReasons)[number];

export const orderRejectionsPageSize = { default: 20, max: 100 } as const;

/**
 * GET order-rejections: newest first; `limit` pages it and `before` (the `nextCursor` of the
 * previous page) continues it, as get-all-data's closed history.
 */
export const orderRejectionsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'validation.invalidValue' })
    .int({ error: 'validation.invalidValue' })
    .min(1, { error: 'validation.invalidValue' })
    .max(orderRejectionsPageSize.max, { error: 'validation.invalidValue' })
    .default(orderRejectionsPageSize.default),
  before: text()
    .trim()
    .max(300, { error: 'validation.invalidValue' })
    .regex(/^\d{1,15}:[\w.:/-]{1,250}$/, { error: 'validation.invalidValue' })
    .optional(),
});
export type OrderRejectionsQuery = z.input<typeof orderRejectionsQuerySchema>;

/** One refused order: when the robot decided it, on what, which way, and why it was refused. */
export const orderRejectionSchema = z.object({
  /** The order's client order id. */
  id: z.string(),
  /** When the robot decided the order (ISO 8601, UTC); the refusal follows within seconds. */
  at: z.string().describe('ISO 8601 instant, UTC'),
  symbol: z.string(),
  /** The instrument's display name (what OutputName is for an operation). */
  OutputName: z.string(),
  category: z.enum(categories),
  side: z.enum(['buy', 'sale']),
  units: z.number(),
  reason: z.enum(orderRejectionReasons),
  /** The broker's own error code (MARKET_CLOSED, SYMBOL_HAS_HOLIDAY, NOT_ENOUGH_MONEY...), or null. */
  brokerCode: z.string().nullable(),
});
export type OrderRejection = z.infer<typeof orderRejectionSchema>;

export const orderRejectionsPageSchema = z.object({
  rejections: z.array(orderRejectionSchema),
  /** Pass as `before` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type OrderRejectionsPage = z.infer<typeof orderRejectionsPageSchema>;
export const orderRejectionsResponseSchema = dataEnvelope(orderRejectionsPageSchema);

/**
 * GET untradable-symbols: a linked broker account's symbols the robot does not trade
 * (decision 097): `unmapped` match none of our instruments, `unconvertible` have no conversion
 * to the account's currency at the broker. `applicable` is false on the built-in platform (it
 * has only our instruments); `symbols` is null until the account's robot has read them.
 */
export const untradableSymbolsSchema = z.object({
  applicable: z.boolean(),
  symbols: z
    .object({
      unmapped: z.array(z.string()),
      unconvertible: z.array(z.string()),
      readAt: z.string().describe('ISO 8601 instant, UTC'),
    })
    .nullable(),
});
export type UntradableSymbolsView = z.infer<typeof untradableSymbolsSchema>;
export const untradableSymbolsResponseSchema = dataEnvelope(untradableSymbolsSchema);
