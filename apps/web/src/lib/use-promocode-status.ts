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

/** Checks the code with the server once typing pauses; the latest code wins. */
export function usePromocodeStatus(code: string): PromocodeStatus {
  const trimmed = code.trim();
  const [result, setResult] = useState<{ code: string; status: PromocodeStatus } | null>(null);

  useEffect(() => {
    if (!trimmed) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      validatePromocode(trimmed, controller.signal)
        .then((answer) => {
          setResult({
            code: trimmed,
            status: answer.valid
              ? { state: 'valid', benefit: answer.benefit }
              : { state: 'invalid' },
          });
        })
        .catch(() => {
          if (!controller.signal.aborted)
            setResult({ code: trimmed, status: { state: 'unknown' } });
        });
    }, promocodeDebounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [trimmed]);

  if (!trimmed) return { state: 'empty' };
  return result?.code === trimmed ? result.status : { state: 'validating' };
}
