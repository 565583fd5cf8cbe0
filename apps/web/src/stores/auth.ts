import type { UserConfig } from '@tradebot/contract';
import { create } from 'zustand';
import { ApiRequestError } from '../lib/api-client';
import { storage } from '../lib/storage';
import { getSettings } from '../lib/get-settings';
import { normalizeUserConfig } from '../lib/user-config';

/** spec §3 Auth state, plus whether the one load failed (so guards stop waiting). */
export interface AuthState {
  token: string | null;
  isSettingsLoaded: boolean;
  isLoadingSettings: boolean;
  settingsFailed: boolean;
  userConfig: UserConfig | null;
  /** spec §4 Session: on login success the token is stored. */
  signIn: (token: string) => void;
  /** Loads the settings once; concurrent callers share the request (spec §4 Session). */
  ensureSettings: () => Promise<void>;
  /**
   * A failed load does not stick: the next navigation calls this, and the guards wait for
   * one more try. A loaded config is never loaded again.
   */
  retryFailedSettings: () => void;
  setUserConfig: (config: UserConfig) => void;
  /**
   * Loads the settings again after a step changed them on the server (linking, the platform
   * login), so that the guards follow the step at once. Throws when the load fails.
   */
  refreshSettings: () => Promise<void>;
  /** Forgets the token, the user config and the settings flags. */
  clear: () => void;
}

export function createAuthStore(load: () => Promise<unknown> = getSettings) {
  let pending: Promise<void> | undefined;
  return create<AuthState>()((set, get) => ({
    token: storage.get('token'),
    isSettingsLoaded: false,
    isLoadingSettings: false,
    settingsFailed: false,
    userConfig: null,
    signIn(token) {
      storage.set('token', token);
      pending = undefined;
      set({
        token,
        isSettingsLoaded: false,
        isLoadingSettings: false,
        settingsFailed: false,
        userConfig: null,
      });
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
          set({
            userConfig: normalizeUserConfig(raw),
            isSettingsLoaded: true,
            isLoadingSettings: false,
          });
        })
        .catch((error: unknown) => {
          if (get().token !== token) return;
          // spec §8: settings load failures are swallowed. A refused token is forgotten.
          if (error instanceof ApiRequestError && error.status === 401) {
            get().clear();
          } else {
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
      if (get().settingsFailed) set({ settingsFailed: false });
    },
    setUserConfig(config) {
      set({ userConfig: config });
    },
    async refreshSettings() {
      const token = get().token;
      const raw = await load();
      if (get().token !== token) return;
      set({
        userConfig: normalizeUserConfig(raw),
        isSettingsLoaded: true,
        isLoadingSettings: false,
        settingsFailed: false,
      });
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
    },
  }));
}

export const useAuthStore = createAuthStore();
