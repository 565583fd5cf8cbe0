import { ApiRequestError } from '../../lib/api-client';

/**
 * What the dashboard says when get-all-data fails (spec §8 silent cases: the response's
 * message when there is one, otherwise nothing of the failure itself). Never the browser's
 * "Failed to fetch" nor an HTTP status text: without the server's message, a translated key.
 */
export type LiveDataFailure =
  { kind: 'server'; text: string; retrying: boolean } | { kind: 'unreachable'; retrying: true };

export function liveDataFailure(error: unknown): LiveDataFailure {
  if (error instanceof ApiRequestError && error.code !== 'HTTP_ERROR' && error.message) {
    // A refusal (4xx) will not pass on a retry; a server in trouble (5xx) may.
    return { kind: 'server', text: error.message, retrying: error.status >= 500 };
  }
  return { kind: 'unreachable', retrying: true };
}

/** While get-all-data fails in a way a retry may fix, it is asked again this often. */
export const liveDataRetryMs = 5_000;

/** TanStack Query's refetchInterval for the live data: retry while the failure may pass. */
export function liveDataRefetchInterval(error: unknown): number | false {
  return error !== null && liveDataFailure(error).retrying ? liveDataRetryMs : false;
}
