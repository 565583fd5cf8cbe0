import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../stores/auth';
import { liveTradingKey, receiveLive } from '../lib/live-trading';
import { queryClient } from '../lib/query-client';
import { registerRealtimeConnection } from '../lib/realtime';
import { installMemoryStorage } from '../test/memory-storage';
import { tradeRow } from '../test/trade-row';
import { logout } from './session';

describe('logout (spec §4 Session)', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = installMemoryStorage();
  });
  afterEach(() => {
    restore();
    vi.unstubAllGlobals();
  });

  it.each([
    ['answers', () => Promise.resolve(new Response('{"data":{"loggedOut":true}}'))],
    ['fails', () => Promise.reject(new TypeError('offline'))],
  ])(
    'calls POST logout with the token, and clears everything even when the server %s',
    async (_case, answer) => {
      const fetchMock = vi.fn(answer);
      vi.stubGlobal('fetch', fetchMock);
      let closed = false;
      registerRealtimeConnection(() => {
        closed = true;
      });
      useAuthStore.getState().signIn('abc');
      receiveLive(queryClient, { trades: [tradeRow({ status: 'open' })] });

      await logout();

      const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe('/core-api/public/api/v1/logout');
      expect(init.method).toBe('POST');
      expect((init.headers as Record<string, string>).Authorization).toBe('Bearer abc');
      expect(useAuthStore.getState()).toMatchObject({
        token: null,
        userConfig: null,
        isSettingsLoaded: false,
      });
      expect(localStorage.getItem('token')).toBeNull();
      // The trading data is gone: the next dashboard starts from a first load.
      expect(queryClient.getQueryData(liveTradingKey)).toBeUndefined();
      expect(closed).toBe(true);
    },
  );
});
