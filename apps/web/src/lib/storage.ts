/** spec §3: the browser storage keys, exactly as the spec spells them. */
export const storageKeys = [
  'token',
  'language',
  'showLanguageBtn',
  'sourceP',
  'sourceS',
  'sourcePromo',
  'sourceReferral',
] as const;
export type StorageKey = (typeof storageKeys)[number];

/** localStorage that never throws (private mode, disabled storage, SSR-less tests). */
export const storage = {
  get(key: StorageKey): string | null {
    try {
      return globalThis.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: StorageKey, value: string): void {
    try {
      globalThis.localStorage.setItem(key, value);
    } catch {
      // Storage unavailable: the value lives for this page only.
    }
  },
  remove(key: StorageKey): void {
    try {
      globalThis.localStorage.removeItem(key);
    } catch {
      // Nothing stored, nothing to remove.
    }
  },
};

/**
 * One value the app keeps in the browser outside the spec's keys (its own `tradebot.` names),
 * in localStorage (every tab) or sessionStorage (this tab); never throws.
 */
export function storedItem(area: 'local' | 'session', key: `tradebot.${string}`) {
  const store = () => (area === 'local' ? globalThis.localStorage : globalThis.sessionStorage);
  return {
    get(): string | null {
      try {
        return store().getItem(key);
      } catch {
        return null;
      }
    },
    set(value: string): void {
      try {
        store().setItem(key, value);
      } catch {
        // Storage unavailable: the caller has another way (router state, the password).
      }
    },
    clear(): void {
      try {
        store().removeItem(key);
      } catch {
        // Nothing stored, nothing to clear.
      }
    },
  };
}
