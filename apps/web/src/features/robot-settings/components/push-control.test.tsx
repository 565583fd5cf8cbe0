// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { PushControl } from './notifications-card';

/** A browser with push, no subscription yet, and `permission` as Notification says it. */
function browserWith(permission: NotificationPermission, answer: NotificationPermission) {
  const requestPermission = vi.fn(() => Promise.resolve(answer));
  vi.stubGlobal('Notification', { permission, requestPermission });
  vi.stubGlobal('PushManager', {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: () => Promise.resolve(undefined) },
  });
  return requestPermission;
}

function renderPush() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PushControl say={vi.fn()} />
    </QueryClientProvider>,
  );
}

const copy = {
  es: {
    ask: 'el navegador te pedirá permiso',
    blocked: 'están bloqueados en este navegador',
    how: 'abre la configuración del sitio',
    enable: 'Recibir avisos en este dispositivo',
  },
  pt: {
    ask: 'o navegador pedirá sua permissão',
    blocked: 'estão bloqueados neste navegador',
    how: 'abra as configurações do site',
    enable: 'Receber avisos neste dispositivo',
  },
} as const;

describe('web push on the notifications card (issue 39)', () => {
  beforeAll(async () => {
    await loadNamespaces(['robot-settings']);
  });
  beforeEach(async () => {
    await changeLanguage('es');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it.each(['es', 'pt'] as const)(
    'offers to turn them on, saying the browser will ask, before anything was asked (%s)',
    async (language) => {
      await changeLanguage(language);
      browserWith('default', 'default');
      renderPush();
      expect(await screen.findByText(new RegExp(copy[language].ask))).toBeTruthy();
      expect(screen.getByRole('button', { name: copy[language].enable })).toBeTruthy();
      expect(screen.queryByText(new RegExp(copy[language].blocked))).toBeNull();
    },
  );

  it.each(['es', 'pt'] as const)(
    'says how to unblock them once the permission is denied (%s)',
    async (language) => {
      await changeLanguage(language);
      browserWith('denied', 'denied');
      renderPush();
      const notice = await screen.findByText(new RegExp(copy[language].blocked));
      expect(notice.textContent).toContain(copy[language].how);
      expect(screen.queryByRole('button')).toBeNull();
    },
  );

  it('keeps offering them when the prompt is dismissed, and says blocked once refused', async () => {
    const requestPermission = browserWith('default', 'default');
    renderPush();
    fireEvent.click(await screen.findByRole('button', { name: copy.es.enable }));
    await vi.waitFor(() => {
      expect(requestPermission).toHaveBeenCalledOnce();
    });
    expect(await screen.findByText(new RegExp(copy.es.ask))).toBeTruthy();
    expect(screen.queryByText(new RegExp(copy.es.blocked))).toBeNull();

    cleanup();
    browserWith('default', 'denied');
    renderPush();
    fireEvent.click(await screen.findByRole('button', { name: copy.es.enable }));
    expect(await screen.findByText(new RegExp(copy.es.blocked))).toBeTruthy();
  });
});
