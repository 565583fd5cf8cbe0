import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { validatePromocode } from './validate-promocode';

/**
 * spec §4 Promotional code states, plus `empty` (nothing typed) and `unknown` (check failed).
 * Registration, /payment and the billing section show them.
 */
export type PromocodeStatus =
  | { state: 'empty' }
  | { state: 'validating' }
  | { state: 'valid'; benefit: string | null }
  | { state: 'invalid' }
  | { state: 'unknown' };

export const promocodeDebounceMs = 400;

/** The server's answer for one code, as server state (TanStack Query): one entry per code. */
export function promocodeQuery(code: string) {
  return queryOptions({
    queryKey: ['promocode', code] as const,
    queryFn: ({ signal }) => validatePromocode(code, signal),
  });
}

/** How long a form being sent waits for a code's check before it lets the server judge the code. */
export const promocodeCheckWaitMs = 5_000;

/**
 * Whether the server refuses `code`, for a form being sent: the answer already held, else the
 * check itself, waited for. A submit pressed while the code was still being checked (typing
 * paused less than `promocodeDebounceMs` ago) is sent once the answer is in, not dropped without
 * a word (issue 39). A check that failed refuses nothing: the server checks the code again.
 *
 * The wait is bounded, so a submit never hangs on the check: one try (no retries with their
 * back-off), fetched even when the browser says it is offline (TanStack Query would otherwise
 * pause the check until it is back online), and at most `waitMs` in all.
 */
export async function promocodeRefused(
  client: QueryClient,
  code: string,
  waitMs = promocodeCheckWaitMs,
): Promise<boolean> {
  const trimmed = code.trim();
  if (trimmed === '') return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      resolve(null);
    }, waitMs);
  });
  const check = client
    .query({ ...promocodeQuery(trimmed), retry: false, networkMode: 'always' })
    .catch(() => null);
  const answer = await Promise.race([check, gaveUp]);
  clearTimeout(timer);
  return answer?.valid === false;
}

/**
 * Checks the code with the server once typing pauses; the latest code wins (a code left
 * behind is no longer observed, and its request is cancelled).
 */
export function usePromocodeStatus(code: string): PromocodeStatus {
  const trimmed = code.trim();
  const [settled, setSettled] = useState(trimmed);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSettled(trimmed);
    }, promocodeDebounceMs);
    return () => {
      clearTimeout(timer);
    };
  }, [trimmed]);
  const answer = useQuery({ ...promocodeQuery(settled), enabled: settled !== '' });

  if (!trimmed) return { state: 'empty' };
  if (settled !== trimmed || answer.isPending) return { state: 'validating' };
  if (answer.isError) return { state: 'unknown' };
  return answer.data.valid
    ? { state: 'valid', benefit: answer.data.benefit }
    : { state: 'invalid' };
}
