import { QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../stores/auth';
import { installMemoryStorage } from '../test/memory-storage';
import { userConfigReloadQuery } from './billing';
import { queryClient } from './query-client';
import { normalizeUserConfig } from './user-config';

/**
 * /payment and /payment/return learn `authorized` from the server; the session's config (the
 * auth store, which the guards read) is read again until it agrees (decision 090 addendum).
 */
describe('userConfigReloadQuery', () => {
  let restore: () => void;
  let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
  const unsubscribes: (() => void)[] = [];

  const observe = (authorized: boolean | undefined, known: boolean | undefined) => {
    const observer = new QueryObserver(queryClient, userConfigReloadQuery(authorized, known));
    unsubscribes.push(observer.subscribe(() => undefined));
  };

  beforeEach(() => {
    restore = installMemoryStorage();
    fetchMock = vi.fn<typeof fetch>(() =>
      Promise.resolve(new Response(JSON.stringify({ data: { authorized: true, linked: true } }))),
    );
    vi.stubGlobal('fetch', fetchMock);
    useAuthStore.getState().signIn('abc');
    useAuthStore.getState().setUserConfig(normalizeUserConfig({ authorized: false }));
  });

  afterEach(() => {
    for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
    useAuthStore.getState().clear();
    queryClient.clear();
    restore();
    vi.unstubAllGlobals();
  });

  it('reads get-settings into the auth store when the server says otherwise than the session', async () => {
    observe(true, false);
    await vi.waitFor(() => {
      expect(useAuthStore.getState().userConfig).toMatchObject({ authorized: true, linked: true });
    });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/core-api/public/api/v1/get-settings');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer abc');
  });

  it('asks nothing while the two agree, or before both are known', async () => {
    observe(false, false);
    observe(undefined, false);
    observe(true, undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reads again a value it read before (the store may have moved on)', async () => {
    observe(true, false);
    await vi.waitFor(() => {
      expect(queryClient.isFetching()).toBe(0);
      expect(useAuthStore.getState().userConfig?.authorized).toBe(true);
    });
    for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
    useAuthStore.getState().setUserConfig(normalizeUserConfig({ authorized: false }));
    observe(true, false);
    await vi.waitFor(() => {
      expect(fetchMock).toHaveBeenCalledTimes(2);
    });
  });
});
