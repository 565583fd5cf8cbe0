import {
  errorMessageKey,
  issueMessage,
  translate,
  type ApiError,
  type ErrorCode,
  type Language,
  type MessageKey,
} from '@tradebot/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { MalformedCTraderGrant } from '../domain/ctrader-grant';
import { DomainError, type DomainErrorClass } from '../domain/errors';
import { RobotUnavailable } from '../robot/link/robot-runtime';
import * as accountSettings from '../services/account-settings.errors';
import * as adminAuth from '../services/admin-auth.errors';
import * as adminPromoCodes from '../services/admin-promo-codes.errors';
import * as adminUsers from '../services/admin-users.errors';
import * as auth from '../services/auth.errors';
import * as billing from '../services/billing.errors';
import * as dataExport from '../services/data-export.errors';
import * as emailChange from '../services/email-change.errors';
import * as emailSubscription from '../services/email-subscription.errors';
import * as linking from '../services/linking.errors';
import * as notification from '../services/notification.errors';
import * as passwordRecovery from '../services/password-recovery.errors';
import * as promoCodes from '../services/promo-codes.errors';
import * as registration from '../services/registration.errors';
import * as supportInbox from '../services/support-inbox.errors';
import * as trackRecord from '../services/track-record.errors';
import * as trading from '../services/trading.errors';
import { requestLanguage } from './language';

export interface LocalizedText {
  key: MessageKey;
  values?: Record<string, string | number>;
}

const statusOfCode: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  VALIDATION_FAILED: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PLATFORM_EMAIL_TAKEN: 409,
  BROKER_ACCOUNT_TAKEN: 409,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/**
 * The one place a domain error becomes an answer: its class's code (and so its status, above).
 * A field error's message is also the answer's message; a class with no key of its own answers
 * its code's generic message. A domain error missing here answers 500 and is logged (a unit
 * test keeps every class in the table).
 */
const codeOfDomainError = new Map<DomainErrorClass, ErrorCode>([
  [accountSettings.WrongPassword, 'VALIDATION_FAILED'],
  [accountSettings.SamePassword, 'VALIDATION_FAILED'],
  [accountSettings.CurrentSessionNotRevocable, 'CONFLICT'],
  [accountSettings.SessionNotFound, 'NOT_FOUND'],
  [adminAuth.AdminCredentialsInvalid, 'UNAUTHENTICATED'],
  [adminAuth.AdminSessionUnknown, 'UNAUTHENTICATED'],
  [adminAuth.AdminCodeIncorrect, 'UNAUTHENTICATED'],
  [adminPromoCodes.PromoCodeTaken, 'CONFLICT'],
  [adminPromoCodes.PromoCodeNotFound, 'NOT_FOUND'],
  [adminPromoCodes.PromoCodeEnded, 'CONFLICT'],
  [adminUsers.AdminUserNotFound, 'NOT_FOUND'],
  [adminUsers.UserNotTrading, 'CONFLICT'],
  [adminUsers.GuaranteeNoPayment, 'CONFLICT'],
  [adminUsers.GuaranteeExpired, 'CONFLICT'],
  [adminUsers.GuaranteeRefunded, 'CONFLICT'],
  [auth.InvalidCredentials, 'UNAUTHENTICATED'],
  [auth.SignInLinkInvalid, 'NOT_FOUND'],
  [billing.PaymentProviderUnavailable, 'SERVICE_UNAVAILABLE'],
  [billing.AlreadySubscribed, 'CONFLICT'],
  [billing.CheckoutNotFound, 'NOT_FOUND'],
  [billing.NoSubscription, 'CONFLICT'],
  [billing.RefundNotEligible, 'CONFLICT'],
  [billing.GuaranteeNotEligible, 'CONFLICT'],
  [billing.PortalUnavailable, 'CONFLICT'],
  [billing.FreeMonthUsed, 'CONFLICT'],
  [billing.UnknownPaymentProvider, 'NOT_FOUND'],
  [billing.WebhookNotVerified, 'BAD_REQUEST'],
  [emailChange.SameEmail, 'VALIDATION_FAILED'],
  [emailChange.EmailLinkInvalid, 'NOT_FOUND'],
  [emailChange.EmailTaken, 'CONFLICT'],
  [emailSubscription.SubscriptionPromoUnavailable, 'VALIDATION_FAILED'],
  [linking.LinkingNeedsPayment, 'FORBIDDEN'],
  [linking.AlreadyLinked, 'CONFLICT'],
  [linking.AlreadyLoggedIn, 'CONFLICT'],
  [linking.PlatformRegistrationFailed, 'SERVICE_UNAVAILABLE'],
  [linking.PlatformEmailTaken, 'PLATFORM_EMAIL_TAKEN'],
  [linking.PlatformAccountExists, 'PLATFORM_EMAIL_TAKEN'],
  [linking.PlatformLoginFailed, 'SERVICE_UNAVAILABLE'],
  [linking.PlatformPasswordInvalid, 'VALIDATION_FAILED'],
  [linking.CTraderNotConfigured, 'NOT_FOUND'],
  [linking.OAuthStateInvalid, 'BAD_REQUEST'],
  [linking.OAuthGrantRefused, 'BAD_REQUEST'],
  [linking.BrokerUnavailable, 'SERVICE_UNAVAILABLE'],
  [linking.BrokerAccountsNotListed, 'SERVICE_UNAVAILABLE'],
  [linking.NoBrokerAuthorization, 'CONFLICT'],
  [linking.BrokerAccountNotOffered, 'VALIDATION_FAILED'],
  [linking.BrokerAccountTaken, 'BROKER_ACCOUNT_TAKEN'],
  [linking.BrokerEnvironmentNotAllowed, 'VALIDATION_FAILED'],
  [linking.NotLinked, 'CONFLICT'],
  [linking.NotLinkedToCTrader, 'CONFLICT'],
  [notification.PushUnavailable, 'NOT_FOUND'],
  [passwordRecovery.RecoveryCodeIncorrect, 'VALIDATION_FAILED'],
  [promoCodes.PromoCodeInvalid, 'VALIDATION_FAILED'],
  [registration.RegionBlocked, 'FORBIDDEN'],
  [registration.ConfirmationLinkInvalid, 'NOT_FOUND'],
  [registration.ConfirmationNeedsPassword, 'VALIDATION_FAILED'],
  [registration.ConfirmationWrongPassword, 'VALIDATION_FAILED'],
  [registration.ConfirmationUsed, 'CONFLICT'],
  [supportInbox.SupportMessageNotFound, 'NOT_FOUND'],
  [trackRecord.TrackRecordCursorInvalid, 'VALIDATION_FAILED'],
  [trading.TradingCursorInvalid, 'VALIDATION_FAILED'],
  [trading.TradingNotLinked, 'FORBIDDEN'],
  [trading.TradingNotAuthorized, 'FORBIDDEN'],
  [trading.RobotOnWithoutAccess, 'FORBIDDEN'],
  [trading.OperationNotFound, 'NOT_FOUND'],
  [dataExport.DataExportUserGone, 'NOT_FOUND'],
  [trading.OperationAlreadyClosed, 'CONFLICT'],
  [trading.OperationCloseUnavailable, 'SERVICE_UNAVAILABLE'],
  [trading.OperationCloseUnconfirmed, 'SERVICE_UNAVAILABLE'],
  [RobotUnavailable, 'SERVICE_UNAVAILABLE'],
  // A sealed grant that opens to no grant: the user starts the link again (decision 165).
  [MalformedCTraderGrant, 'CONFLICT'],
]);

/** The code a domain error class answers with; undefined for a class missing from the table. */
export function codeOfDomainErrorClass(errorClass: DomainErrorClass): ErrorCode | undefined {
  return codeOfDomainError.get(errorClass);
}

function fromDomainError(error: DomainError): AppError {
  const code = codeOfDomainError.get(error.constructor as DomainErrorClass);
  if (!code) return new AppError('INTERNAL_ERROR');
  const text: LocalizedText = {
    key: error.key ?? errorMessageKey(code),
    ...(error.values ? { values: { ...error.values } } : {}),
  };
  return new AppError(
    code,
    text,
    error.field === undefined ? undefined : { [error.field]: [text] },
  );
}

/**
 * An answer the HTTP layer gives on purpose (authentication, rate limits, framework errors, and
 * domain errors once mapped). It carries a stable code and catalogue keys, never finished text:
 * the text is rendered in the request's language on the way out.
 */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly text: LocalizedText = { key: errorMessageKey(code) },
    readonly fieldErrors?: Record<string, LocalizedText[]>,
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'AppError';
    this.statusCode = statusOfCode[code];
  }
}

/** A request that failed its zod schema; raised by our validator compiler. */
export class RequestValidationError extends Error {
  readonly statusCode = 422;
  constructor(
    readonly issues: z.core.$ZodIssue[],
    readonly part: string,
  ) {
    super('Request validation failed');
    this.name = 'RequestValidationError';
  }
}

/** The issue's catalogue message (the contract's mapping, the same the web app's forms use). */
function issueText(issue: z.core.$ZodIssue): LocalizedText {
  const { key, count } = issueMessage(issue);
  return count === undefined ? { key } : { key, values: { count } };
}

export function fieldErrorsOf(error: RequestValidationError): Record<string, LocalizedText[]> {
  const fields: Record<string, LocalizedText[]> = {};
  const add = (field: string, text: LocalizedText) => {
    const list = (fields[field] ??= []);
    if (!list.some((existing) => existing.key === text.key)) list.push(text);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key].join('.'), issueText(issue));
      continue;
    }
    add(issue.path.length > 0 ? issue.path.join('.') : error.part, issueText(issue));
  }
  return fields;
}

function render(language: Language, fields: Record<string, LocalizedText[]>) {
  return Object.fromEntries(
    Object.entries(fields).map(([field, texts]) => [
      field,
      texts.map((text) => translate(language, text.key, text.values)),
    ]),
  );
}

function body(language: Language, error: AppError): ApiError {
  return {
    message: translate(language, error.text.key, error.text.values),
    code: error.code,
    ...(error.fieldErrors ? { errors: render(language, error.fieldErrors) } : {}),
  };
}

/** Maps framework errors (bad JSON, 415, 413, 429, ...) onto our codes. */
function toAppError(error: FastifyError | Error): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof DomainError) return fromDomainError(error);
  if (error instanceof RequestValidationError) {
    return new AppError('VALIDATION_FAILED', undefined, fieldErrorsOf(error));
  }
  const { code, statusCode } = error as FastifyError;
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON');
    default:
      break;
  }
  if (statusCode === 429) return new AppError('RATE_LIMITED');
  if (statusCode === 404) return new AppError('NOT_FOUND');
  if (statusCode === 401) return new AppError('UNAUTHENTICATED');
  if (statusCode === 403) return new AppError('FORBIDDEN');
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new AppError('BAD_REQUEST');
  }
  return new AppError('INTERNAL_ERROR');
}

/**
 * How long a refused client should wait, in its language (issue 39: "Demasiados intentos" said
 * not how long): seconds up to 90, then minutes up to 90, then hours, rounded up.
 */
export function formatWait(language: Language, seconds: number): string {
  const [value, unit] =
    seconds <= 90
      ? [Math.max(1, Math.ceil(seconds)), 'second']
      : seconds <= 90 * 60
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(
    value,
  );
}

/** A 429 names the wait its Retry-After gives, whichever limit refused (ours or the plugin's). */
function withWait(error: AppError, reply: FastifyReply, language: Language): AppError {
  if (error.code !== 'RATE_LIMITED' || error.text.key !== errorMessageKey('RATE_LIMITED')) {
    return error;
  }
  const seconds = Number(error.headers['retry-after'] ?? reply.getHeader('retry-after'));
  if (!Number.isFinite(seconds) || seconds <= 0) return error;
  return new AppError(
    error.code,
    { key: 'errors.RATE_LIMITED_WAIT', values: { wait: formatWait(language, seconds) } },
    error.fieldErrors,
    error.headers,
  );
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  // The user's saved language counts on authenticated routes (after the body and the header).
  const language = requestLanguage(request, request.user?.language);
  return reply
    .headers(error.headers)
    .status(error.statusCode)
    .type('application/json; charset=utf-8')
    .send(body(language, withWait(error, reply, language)));
}

/** The one error handler: a localized `{message, code, errors?}`, and never a stack trace. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(error);
  if (appError.statusCode >= 500) {
    request.log.error({ err: error }, 'request failed');
  } else {
    request.log.info({ code: appError.code, statusCode: appError.statusCode }, 'request refused');
  }
  return sendError(request, reply, appError);
}
