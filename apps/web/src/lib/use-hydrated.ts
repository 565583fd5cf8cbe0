import { useEffect, useRef, useState, useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False while React hydrates a prerendered page (and at build time), true afterwards. What
 * only this browser knows (a stored token, a stored preference) renders after hydration, so
 * the first client render matches the prerendered HTML (docs/decisions/053).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * Runs `restore` once, on the first render after hydration (or the first render when there
 * is nothing to hydrate): a form fills in what this browser stored (a promo code, an e-mail)
 * without the prerendered page and the hydrating render disagreeing about it.
 */
export function useRestoreAfterHydration(restore: () => void): void {
  const hydrated = useHydrated();
  const [restored, setRestored] = useState(false);
  if (hydrated && !restored) {
    setRestored(true);
    restore();
  }
}

/**
 * `useRestoreAfterHydration` for a react-hook-form form: its `setValue` tells the fields, and
 * a component must not be told to render while another one renders, so the stored value is
 * restored by an effect, once, right after hydration.
 */
export function useRestoreFormAfterHydration(restore: () => void): void {
  const hydrated = useHydrated();
  const restored = useRef(false);
  useEffect(() => {
    if (!hydrated || restored.current) return;
    restored.current = true;
    restore();
  }, [hydrated, restore]);
}
