import type { UserConfig } from '@tradebot/contract';
import { create } from 'zustand';
import { ApiRequestError } from '../lib/api-client';
import { storage } from '../lib/storage';
import { getSettings } from '../lib/get-settings';
import { normalizeUserConfig } from '../lib/user-config';
import { useAppStore } from './app';

/** spec §3 Auth state, plus whether the one load failed (so guards stop waiting). */
export interface AuthState {
  token: string | null;
  isSettingsLoaded: boolean;
  isLoadingSettings: boolean;
  settingsFailed: boolean;
  userConfig: UserConfig | null;
  /**
   * The server refused the stored token (401) while loading the settings: the session ended
   * (expired, or revoked by a logout elsewhere). Read once by the guards, which say so.
   */
  sessionEnded: boolean;
  /** spec §4 Session: on login success the token is stored. */
  signIn: (token: string) => void;
  /** Loads the settings once; concurrent callers share the request (spec §4 Session). */
  ensureSettings: () => Promise<void>;
  /**
   * A failed load does not stick: the next navigation calls this, and the guards wait for
   * one more try, once `settingsRetryMs` have passed since the failure (not on every
   * navigation of someone clicking around during an outage). A loaded config is never
   * loaded again.
   */
  retryFailedSettings: () => void;
  /** Whether the session just ended on a 401, and forgets it (the guards say it once). */
  takeSessionEnded: () => boolean;
  setUserConfig: (config: UserConfig) => void;
  /**
   * Loads the settings again after a step changed them on the server (linking, the platform
   * login), so that the guards follow the step at once. Throws when the load fails.
   */
  refreshSettings: () => Promise<void>;
  /** Forgets the token, the user config and the settings flags. */
  clear: () => void;
}

/** A failed settings load is tried again at a navigation at most this often (decision 073). */
export const settingsRetryMs = 10_000;

export interface AuthStoreOptions {
  now?: () => number;
  /** Told every user config the store takes, and null when it forgets it. */
  onConfig?: (config: UserConfig | null) => void;
}

export function createAuthStore(
  load: () => Promise<unknown> = getSettings,
  options: AuthStoreOptions = {},
) {
  const now = options.now ?? Date.now;
  const onConfig = options.onConfig ?? (() => undefined);
  let pending: Promise<void> | undefined;
  let failedAt = 0;
  return create<AuthState>()((set, get) => ({
    token: storage.get('token'),
    isSettingsLoaded: false,
    isLoadingSettings: false,
    settingsFailed: false,
    userConfig: null,
    sessionEnded: false,
    signIn(token) {
      storage.set('token', token);
      pending = undefined;
      set({
        token,
        isSettingsLoaded: false,
        isLoadingSettings: false,
        settingsFailed: false,
        userConfig: null,
        sessionEnded: false,
      });
      onConfig(null);
    },
    ensureSettings() {
      const state = get();
      if (!state.token || state.isSettingsLoaded || state.settingsFailed) return Promise.resolve();
      if (pending) return pending;
      const token = state.token;
      set({ isLoadingSettings: true });
      const request = load()
        .then((raw) => {
          if (get().token !== token) return;
          const config = normalizeUserConfig(raw);
          set({ userConfig: config, isSettingsLoaded: true, isLoadingSettings: false });
          onConfig(config);
        })
        .catch((error: unknown) => {
          if (get().token !== token) return;
          // spec §8: settings load failures are swallowed. A refused token is forgotten, and
          // the guards tell the user their session ended (decision 073).
          if (error instanceof ApiRequestError && error.status === 401) {
            get().clear();
            set({ sessionEnded: true });
          } else {
            failedAt = now();
            set({ isLoadingSettings: false, settingsFailed: true });
          }
        })
        .finally(() => {
          if (pending === request) pending = undefined;
        });
      pending = request;
      return request;
    },
    retryFailedSettings() {
      if (get().settingsFailed && now() - failedAt >= settingsRetryMs) {
        set({ settingsFailed: false });
      }
    },
    takeSessionEnded() {
      const ended = get().sessionEnded;
      if (ended) set({ sessionEnded: false });
      return ended;
    },
    setUserConfig(config) {
      set({ userConfig: config });
      onConfig(config);
    },
    async refreshSettings() {
      const token = get().token;
      const raw = await load();
      if (get().token !== token) return;
      const config = normalizeUserConfig(raw);
      set({
        userConfig: config,
        isSettingsLoaded: true,
        isLoadingSettings: false,
        settingsFailed: false,
      });
      onConfig(config);
    },
    clear() {
      storage.remove('token');
      pending = undefined;
      set({
        token: null,
        isSettingsLoaded: false,
        isLoadingSettings: false,
        settingsFailed: false,
        userConfig: null,
      });
      onConfig(null);
    },
  }));
}

/** spec §3 App state's subscribedToNewsletter follows the saved setting (issue 22). */
export const useAuthStore = createAuthStore(getSettings, {
  onConfig: (config) => {
    useAppStore.getState().setSubscribedToNewsletter(config?.user.subscribed_newsletter ?? false);
  },
});
