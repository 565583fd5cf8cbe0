// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registrationNonce } from '../features/auth/api/register';
import { changeLanguage, loadNamespaces } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { useAppStore } from '../stores/app';
import { useAuthStore } from '../stores/auth';
import { useGeoStore } from '../stores/geo';
import { routes } from './router';

// Issue 39: a free-month code's account was told "your free month is active" in a modal
// dialog a few seconds after the linking page opened, over the form the user was starting.
// Decision 156: it is a notice in the page, above the form; no dialog opens there.

const userConfig = {
  user: {
    id: 'u1',
    name: 'Ana',
    last_name: 'Paz',
    email: 'ana@example.com',
    subscribed_newsletter: false,
  },
  settings: {
    bot_on: false,
    risk: 1,
    categories_enabled: {
      forex: true,
      cripto: true,
      stocks: true,
      index: true,
      commodities: true,
      all: true,
    },
  },
  linked: false,
  login_tradear: false,
  authorized: true,
};

const billing = {
  provider: 'simulated',
  authorized: true,
  subscription: {
    plan: 'monthly',
    status: 'active',
    freeMonth: true,
    startedAt: '2026-11-21T12:00:00.000Z',
    currentPeriodEnd: '2026-12-21T12:00:00.000Z',
    cancelAtPeriodEnd: true,
    nextChargeAt: null,
    nextChargeCents: null,
    accessUntil: '2026-12-21T12:00:00.000Z',
    retryAt: null,
    endedAt: null,
  },
  payments: [],
  refund: { eligible: false, until: null, amountCents: null },
  gift: null,
  portal: false,
  guarantee: { eligible: false, until: null },
  freeMonthUsed: true,
};

/** The server, as far as this journey asks it; anything else stays pending. */
function server() {
  const json = (data: unknown) =>
    Promise.resolve(new Response(JSON.stringify({ data }), { status: 200 }));
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      if (url.endsWith('/api/v1/register/confirm'))
        return json({ token: 'session-token', promocode: 'applied', plan: null });
      if (url.endsWith('/api/v1/get-settings')) return json(userConfig);
      if (url.endsWith('/api/v1/billing')) return json(billing);
      if (url.endsWith('/api/v1/country-code')) return json('AR');
      return new Promise<Response>(() => undefined);
    }),
  );
}

beforeAll(async () => {
  await loadNamespaces(['common', 'auth', 'forms', 'linking']);
});

afterEach(async () => {
  cleanup();
  queryClient.clear();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
  useAuthStore.getState().clear();
  useAppStore.getState().closeMessage();
  await changeLanguage('es');
});

describe('the free month, right after the e-mail link made the account', () => {
  it.each([
    [
      'es',
      'Tu mes gratis ya está activo: termina el 21 de diciembre de 2026.',
      'Crea tu acceso a la plataforma',
    ],
    [
      'pt',
      'Seu mês grátis já está ativo: termina em 21 de dezembro de 2026.',
      'Crie seu acesso à plataforma',
    ],
  ] as const)(
    'is said above the linking form, not in a dialog over it (%s)',
    async (language, text, form) => {
      await changeLanguage(language);
      useGeoStore.setState({ countryCode: 'AR' });
      server();
      registrationNonce.set('n'.repeat(43));
      const router = createMemoryRouter(routes, {
        initialEntries: ['/register?confirmation_token=the-link-token'],
      });
      render(<RouterProvider router={router} />);

      const notice = await screen.findByText(text, { exact: false }, { timeout: 5000 });
      expect(notice.closest('[role="status"]')).not.toBeNull();
      expect(router.state.location.pathname).toBe('/link-account');
      expect(screen.getByRole('heading', { name: form })).toBeTruthy();
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(useAppStore.getState().overlayVisible).toBe(false);
    },
  );
});
