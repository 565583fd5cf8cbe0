import { useSyncExternalStore } from 'react';

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
