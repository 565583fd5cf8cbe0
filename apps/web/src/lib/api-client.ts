import type { ApiError } from '@tradebot/contract';
import { apiBasePath } from '@tradebot/contract/constants';
import { storage } from './storage';

/** A failed call, carrying the server's localized message and stable code. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Another bearer token than the stored user's (the support console's); null sends none. */
  token?: string | null;
}

function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiError).message === 'string' &&
    typeof (value as ApiError).code === 'string'
  );
}

const refusedListeners = new Set<(token: string) => void>();

/**
 * Tells `listener` each time the server refuses the stored user's token (a 401 to a request
 * that carried it): the session ended elsewhere (a logout on another device, a password reset).
 * Returns a function that stops telling it.
 */
export function onStoredTokenRefused(listener: (token: string) => void): () => void {
  refusedListeners.add(listener);
  return () => {
    refusedListeners.delete(listener);
  };
}

/**
 * spec §7: base {host}/core-api/public, JSON headers, Bearer when a token is stored,
 * no timeout, and any 2xx is success. Answers are `{ data }`; this returns the body.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
  };
  const token = options.token === undefined ? storage.get('token') : options.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const language = storage.get('language');
  if (language) headers['Accept-Language'] = language;

  const response = await fetch(`${apiBasePath}${path}`, {
    method: options.method ?? 'GET',
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (response.status >= 200 && response.status < 300) return body as T;
  if (response.status === 401 && options.token === undefined && token) {
    for (const listener of refusedListeners) listener(token);
  }
  if (isApiError(body)) {
    throw new ApiRequestError(response.status, body.code, body.message, body.errors ?? {});
  }
  throw new ApiRequestError(response.status, 'HTTP_ERROR', response.statusText || 'Error');
}
