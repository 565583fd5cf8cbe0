/**
 * Stable error codes. Clients switch on the code; the message is for people and is
 * already in their language.
 */
export const errorCodes = [
  'BAD_REQUEST',
  'INVALID_JSON',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PLATFORM_EMAIL_TAKEN',
  'BROKER_ACCOUNT_TAKEN',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof errorCodes)[number];
