import { ApiRequestError } from '../../../lib/api-client';

/** The server's localized message when it answered one, else null (the caller's own words). */
export function serverMessage(error: unknown): string | null {
  return error instanceof ApiRequestError && error.code !== 'HTTP_ERROR' ? error.message : null;
}
