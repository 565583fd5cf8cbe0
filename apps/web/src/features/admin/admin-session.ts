import { useSyncExternalStore } from 'react';

/**
 * The console's bearer token, apart from the user's (docs/decisions/057): in sessionStorage,
 * so it ends with the browser tab, and never under the spec's localStorage keys.
 */
const key = 'tradebot.adminToken';
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return globalThis.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

let current = read();

function write(token: string | null): void {
  current = token;
  try {
    if (token) globalThis.sessionStorage.setItem(key, token);
    else globalThis.sessionStorage.removeItem(key);
  } catch {
    // Storage unavailable: the session lives in this page only.
  }
  for (const listener of listeners) listener();
}

export const adminSession = {
  token: () => current,
  set: (token: string) => {
    write(token);
  },
  clear: () => {
    write(null);
  },
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The console's token, re-rendering when it changes (sign-in, sign-out, expiry). */
export function useAdminToken(): string | null {
  return useSyncExternalStore(subscribe, adminSession.token, adminSession.token);
}
