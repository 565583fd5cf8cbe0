import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, ApiRequestError } from '../lib/api-client';
import { useAppStore } from '../stores/app';
import { useAuthStore } from '../stores/auth';
import { installMemoryStorage } from '../test/memory-storage';
import { runGuards } from './guard-loader';
import { followRefusedSessions } from './session-refused';

const refused = () =>
  Promise.resolve(
    new Response('{"code":"UNAUTHENTICATED","message":"Necesitas iniciar sesión."}', {
      status: 401,
    }),
  );

/** A signed-in user with the private pages on screen (settings loaded). */
function onPrivatePages(token: string) {
  useAuthStore.getState().signIn(token);
  useAuthStore.setState({ isSettingsLoaded: true });
}

describe('a session ended elsewhere while its pages are on screen (issue 39 point 5)', () => {
  let restore: () => void;
  let stop: () => void;
  let revalidate: ReturnType<typeof vi.fn<() => void>>;
  beforeEach(() => {
    restore = installMemoryStorage();
    revalidate = vi.fn<() => void>();
    stop = followRefusedSessions(revalidate);
    useAppStore.getState().closeMessage();
  });
  afterEach(() => {
    stop();
    useAuthStore.getState().clear();
    useAuthStore.setState({ sessionEnded: false });
    restore();
    vi.unstubAllGlobals();
  });

  it('ends the session at any refused action, and the guards say so on the way to the login', async () => {
    vi.stubGlobal('fetch', vi.fn(refused));
    onPrivatePages('abc');
    await expect(
      apiRequest('/api/v1/update-settings', { method: 'POST', body: {} }),
    ).rejects.toBeInstanceOf(ApiRequestError);
    expect(useAuthStore.getState().token).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    await vi.waitFor(() => {
      expect(revalidate).toHaveBeenCalledTimes(1);
    });

    // The revalidated route's guards: to the login, saying that the session ended.
    const target = await runGuards({ requiresAuth: true }, '/dashboard');
    expect(target).toMatch(/^\/login/);
    expect(useAppStore.getState().overlay?.message).toEqual({ key: 'guards.sessionEnded' });
  });

  it('leaves a wrong password at the login, a stale token and a loading session alone', async () => {
    vi.stubGlobal('fetch', vi.fn(refused));
    // A request without the stored token (the login, the support console's own token).
    await expect(apiRequest('/api/v1/login', { method: 'POST', body: {} })).rejects.toThrow();
    onPrivatePages('abc');
    await expect(apiRequest('/api/v1/admin/x', { token: 'other' })).rejects.toThrow();
    expect(useAuthStore.getState().token).toBe('abc');
    // While the settings load, the load's own handling says it (stores/auth.ts).
    useAuthStore.setState({ isSettingsLoaded: false });
    await expect(apiRequest('/api/v1/get-settings')).rejects.toThrow();
    expect(useAuthStore.getState().token).toBe('abc');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(revalidate).not.toHaveBeenCalled();
  });
});
