import { create } from 'zustand';
import { storage } from '../lib/storage';

/**
 * A message for the overlay: a catalogue key (rendered in the current language, so a
 * language switch re-renders it) or a text the server already localized.
 */
export type OverlayMessage =
  { key: string; values?: Record<string, string | number> } | { text: string };

export interface OverlayContent {
  message: OverlayMessage;
  /** spec §3 Overlay: the close icon shows by default, 50 px. */
  showCloseButton: boolean;
  closeButtonSize: number;
}

/** spec §3 App state. */
export interface AppState {
  loading: boolean;
  language: string;
  showLanguageBtn: boolean;
  subscribedToNewsletter: boolean;
  overlayVisible: boolean;
  overlay: OverlayContent | null;
  tradingAccountModalOpen: boolean;
  setLoading: (loading: boolean) => void;
  setLanguage: (language: string) => void;
  setShowLanguageBtn: (show: boolean) => void;
  setSubscribedToNewsletter: (subscribed: boolean) => void;
  showMessage: (
    message: OverlayMessage,
    options?: Partial<Pick<OverlayContent, 'showCloseButton' | 'closeButtonSize'>>,
  ) => void;
  closeMessage: () => void;
  setTradingAccountModalOpen: (open: boolean) => void;
}

export function createAppStore(initialLanguage = 'es') {
  return create<AppState>()((set) => ({
    loading: false,
    language: initialLanguage,
    // Shown unless explicitly turned off (stored as the string "false").
    showLanguageBtn: storage.get('showLanguageBtn') !== 'false',
    subscribedToNewsletter: false,
    overlayVisible: false,
    overlay: null,
    tradingAccountModalOpen: false,
    setLoading: (loading) => {
      set({ loading });
    },
    setLanguage: (language) => {
      set({ language });
    },
    setShowLanguageBtn: (show) => {
      storage.set('showLanguageBtn', String(show));
      set({ showLanguageBtn: show });
    },
    setSubscribedToNewsletter: (subscribed) => {
      set({ subscribedToNewsletter: subscribed });
    },
    showMessage: (message, options = {}) => {
      set({
        overlayVisible: true,
        overlay: {
          message,
          showCloseButton: options.showCloseButton ?? true,
          closeButtonSize: options.closeButtonSize ?? 50,
        },
      });
    },
    closeMessage: () => {
      set({ overlayVisible: false, overlay: null });
    },
    setTradingAccountModalOpen: (open) => {
      set({ tradingAccountModalOpen: open });
    },
  }));
}

export const useAppStore = createAppStore();
