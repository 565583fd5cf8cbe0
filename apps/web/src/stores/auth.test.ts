import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiRequestError } from '../lib/api-client';
import { installMemoryStorage } from '../test/memory-storage';
import type { UserConfig } from '@tradebot/contract';
import { createAuthStore, settingsRetryMs } from './auth';

const rawConfig = {
  user: { id: 'u1', name: 'Ana', last_name: 'Paz', email: 'a@b.co', subscribed_newsletter: 1 },
  settings: {
    bot_on: 'true',
    risk: '2',
    categories_enabled: JSON.stringify({ forex: 1, cripto: '0', stocks: true, index: 'true' }),
  },
  linked: true,
  login_tradear: 0,
  authorized: '1',
};

describe('auth store (spec §3 Auth state, §4 Session)', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = installMemoryStorage();
  });
  afterEach(() => {
    restore();
  });

  it('reads the stored token at startup', () => {
    localStorage.setItem('token', 'stored');
    expect(createAuthStore().getState().token).toBe('stored');
  });

  it('stores the token on sign-in', () => {
    const store = createAuthStore();
    store.getState().signIn('abc');
    expect(store.getState().token).toBe('abc');
    expect(localStorage.getItem('token')).toBe('abc');
  });

  it('loads the settings once, with loading and loaded flags, categories as booleans', async () => {
    let calls = 0;
    const store = createAuthStore(() => {
      calls += 1;
      return Promise.resolve(rawConfig);
    });
    store.getState().signIn('abc');
    const first = store.getState().ensureSettings();
    expect(store.getState().isLoadingSettings).toBe(true);
    await Promise.all([first, store.getState().ensureSettings()]);
    await store.getState().ensureSettings();
    expect(calls).toBe(1);
    const state = store.getState();
    expect(state.isLoadingSettings).toBe(false);
    expect(state.isSettingsLoaded).toBe(true);
    expect(state.userConfig).toEqual({
      user: {
        id: 'u1',
        name: 'Ana',
        last_name: 'Paz',
        email: 'a@b.co',
        subscribed_newsletter: true,
      },
      settings: {
        bot_on: true,
        risk: 2,
        categories_enabled: {
          forex: true,
          cripto: false,
          stocks: true,
          index: true,
          commodities: false,
          all: false,
        },
      },
      linked: true,
      login_tradear: false,
      authorized: true,
    });
  });

  it('does nothing without a token', async () => {
    let calls = 0;
    const store = createAuthStore(() => {
      calls += 1;
      return Promise.resolve(rawConfig);
    });
    await store.getState().ensureSettings();
    expect(calls).toBe(0);
  });

  it('forgets a token the server refuses (401)', async () => {
    const store = createAuthStore(() =>
      Promise.reject(new ApiRequestError(401, 'UNAUTHENTICATED', 'expired')),
    );
    store.getState().signIn('old');
    await store.getState().ensureSettings();
    expect(store.getState().token).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    // Not silently: the guards are told once that the session ended (decision 073).
    expect(store.getState().takeSessionEnded()).toBe(true);
    expect(store.getState().takeSessionEnded()).toBe(false);
    store.getState().signIn('new');
    expect(store.getState().sessionEnded).toBe(false);
  });

  it('swallows other failures (spec §8) and stops waiting', async () => {
    const store = createAuthStore(() => Promise.reject(new Error('offline')));
    store.getState().signIn('abc');
    await expect(store.getState().ensureSettings()).resolves.toBeUndefined();
    expect(store.getState()).toMatchObject({
      token: 'abc',
      isSettingsLoaded: false,
      isLoadingSettings: false,
      settingsFailed: true,
    });
  });

  it('tries a failed load again when asked, not sooner than settingsRetryMs, and never reloads a loaded config', async () => {
    let calls = 0;
    let clock = 1_000_000;
    const store = createAuthStore(
      () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(rawConfig);
      },
      { now: () => clock },
    );
    store.getState().signIn('abc');
    await store.getState().ensureSettings();
    expect(store.getState().settingsFailed).toBe(true);

    // Navigations right after the failure do not ask again.
    clock += settingsRetryMs - 1;
    store.getState().retryFailedSettings();
    await store.getState().ensureSettings();
    expect(calls).toBe(1);
    expect(store.getState().settingsFailed).toBe(true);

    clock += 1;
    store.getState().retryFailedSettings();
    await store.getState().ensureSettings();
    expect(store.getState()).toMatchObject({ isSettingsLoaded: true, settingsFailed: false });

    store.getState().retryFailedSettings();
    await store.getState().ensureSettings();
    expect(calls).toBe(2);
  });

  it('clear() forgets the token, the config and the flags', async () => {
    const store = createAuthStore(() => Promise.resolve(rawConfig));
    store.getState().signIn('abc');
    await store.getState().ensureSettings();
    store.getState().clear();
    expect(store.getState()).toMatchObject({
      token: null,
      userConfig: null,
      isSettingsLoaded: false,
      isLoadingSettings: false,
    });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('refreshSettings() loads again after a step changed the account, so the guards follow it', async () => {
    let linked = false;
    const store = createAuthStore(() => Promise.resolve({ ...rawConfig, linked }));
    store.getState().signIn('abc');
    await store.getState().ensureSettings();
    expect(store.getState().userConfig?.linked).toBe(false);
    linked = true;
    await store.getState().refreshSettings();
    expect(store.getState().userConfig?.linked).toBe(true);
    expect(store.getState().isSettingsLoaded).toBe(true);
  });

  it('tells the saved newsletter choice on every config it takes, and none once cleared', async () => {
    const told: (boolean | null)[] = [];
    const store = createAuthStore(() => Promise.resolve(rawConfig), {
      onConfig: (config: UserConfig | null) =>
        told.push(config?.user.subscribed_newsletter ?? null),
    });
    store.getState().signIn('abc');
    await store.getState().ensureSettings();
    expect(told.at(-1)).toBe(true);
    store.getState().clear();
    expect(told.at(-1)).toBeNull();
  });
});
