/**
 * The cTrader Open API's errors as typed errors. `ProtoOAErrorRes`, `ProtoErrorRes` and
 * `ProtoOAOrderErrorEvent` carry an error code by name (ProtoErrorCode / ProtoOAErrorCode in the
 * definitions); `fromErrorCode` picks the class a caller can act on.
 */

export interface CTraderErrorDetails {
  readonly code: string;
  readonly description?: string | undefined;
  readonly accountId?: number | undefined;
  /** Maintenance end, Unix milliseconds, when the server says it is under maintenance. */
  readonly maintenanceEndsAt?: number | undefined;
  /** Seconds until a rate-limited payload type is unlocked (BLOCKED_PAYLOAD_TYPE). */
  readonly retryAfterSeconds?: number | undefined;
}

export class CTraderError extends Error {
  readonly code: string;
  readonly description: string | undefined;
  readonly accountId: number | undefined;
  readonly maintenanceEndsAt: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(details: CTraderErrorDetails) {
    super(
      details.description
        ? `cTrader ${details.code}: ${details.description}`
        : `cTrader ${details.code}`,
    );
    this.name = new.target.name;
    this.code = details.code;
    this.description = details.description;
    this.accountId = details.accountId;
    this.maintenanceEndsAt = details.maintenanceEndsAt;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** The access token is expired, invalid or revoked: the user must authorise the product again. */
export class CTraderTokenError extends CTraderError {}
/** The application's own credentials were refused. */
export class CTraderApplicationAuthError extends CTraderError {}
/** Too many requests, or the payload type is blocked for a while. */
export class CTraderRateLimitError extends CTraderError {}
/** The market, the symbol's session or the whole server is closed (weekend, holiday, maintenance). */
export class CTraderMarketClosedError extends CTraderError {}
/** The order itself was refused (volume, stops, money, trading disabled...). */
export class CTraderOrderRejectedError extends CTraderError {}
/**
 * The connection dropped, or no answer came in time. When `maybeDelivered` is true the request
 * left this process and its outcome is unknown: reconcile before sending it again.
 */
export class CTraderConnectionError extends CTraderError {
  constructor(
    details: CTraderErrorDetails,
    readonly maybeDelivered = false,
  ) {
    super(details);
  }
}

const TOKEN = new Set([
  'OA_AUTH_TOKEN_EXPIRED',
  'CH_ACCESS_TOKEN_INVALID',
  'ACCOUNT_NOT_AUTHORIZED',
  'RET_NO_SUCH_LOGIN',
  'RET_ACCOUNT_DISABLED',
  'CH_CTID_TRADER_ACCOUNT_NOT_FOUND',
]);
const APPLICATION = new Set([
  'CH_CLIENT_AUTH_FAILURE',
  'CH_CLIENT_NOT_AUTHENTICATED',
  'CH_OA_CLIENT_NOT_FOUND',
]);
const RATE = new Set(['REQUEST_FREQUENCY_EXCEEDED', 'BLOCKED_PAYLOAD_TYPE']);
const CLOSED = new Set([
  'MARKET_CLOSED',
  'SYMBOL_HAS_HOLIDAY',
  'SERVER_IS_UNDER_MAINTENANCE',
  'CH_SERVER_NOT_REACHABLE',
]);
const ORDER = new Set([
  'NOT_ENOUGH_MONEY',
  'MAX_EXPOSURE_REACHED',
  'TOO_MANY_POSITIONS',
  'TRADING_BAD_VOLUME',
  'TRADING_BAD_STOPS',
  'TRADING_BAD_PRICES',
  'TRADING_BAD_STAKE',
  'PROTECTION_IS_TOO_CLOSE_TO_MARKET',
  'TRADING_DISABLED',
  'TRADING_NOT_ALLOWED',
  'SHORT_SELLING_NOT_ALLOWED',
  'NO_QUOTES',
  'SYMBOL_NOT_FOUND',
  'UNKNOWN_SYMBOL',
]);

export function fromErrorCode(details: CTraderErrorDetails): CTraderError {
  if (TOKEN.has(details.code)) return new CTraderTokenError(details);
  if (APPLICATION.has(details.code)) return new CTraderApplicationAuthError(details);
  if (RATE.has(details.code)) return new CTraderRateLimitError(details);
  if (CLOSED.has(details.code)) return new CTraderMarketClosedError(details);
  if (ORDER.has(details.code)) return new CTraderOrderRejectedError(details);
  return new CTraderError(details);
}
