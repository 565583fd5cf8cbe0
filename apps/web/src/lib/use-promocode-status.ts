import { queryOptions, useQuery } from '@tanstack/react-query';
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
