import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installMemoryStorage } from '../test/memory-storage';
import { createAppStore } from './app';

describe('app store (spec §3 App state)', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = installMemoryStorage();
  });
  afterEach(() => {
    restore();
  });

  it('starts idle, with the language button shown and no overlay', () => {
    expect(createAppStore('pt').getState()).toMatchObject({
      loading: false,
      language: 'pt',
      showLanguageBtn: true,
      subscribedToNewsletter: false,
      overlayVisible: false,
      overlay: null,
      tradingAccountModalOpen: false,
    });
  });

  it('shows a message with the close icon at 50 px by default, and closes it', () => {
    const store = createAppStore();
    store.getState().showMessage({ key: 'guards.loginRequired' });
    expect(store.getState()).toMatchObject({
      overlayVisible: true,
      overlay: {
        message: { key: 'guards.loginRequired' },
        showCloseButton: true,
        closeButtonSize: 50,
      },
    });
    store.getState().showMessage({ text: 'x' }, { showCloseButton: false, closeButtonSize: 32 });
    expect(store.getState().overlay).toMatchObject({ showCloseButton: false, closeButtonSize: 32 });
    store.getState().closeMessage();
    expect(store.getState()).toMatchObject({ overlayVisible: false, overlay: null });
  });

  it('keeps showLanguageBtn under its storage key', () => {
    createAppStore().getState().setShowLanguageBtn(false);
    expect(localStorage.getItem('showLanguageBtn')).toBe('false');
    expect(createAppStore().getState().showLanguageBtn).toBe(false);
  });
});
