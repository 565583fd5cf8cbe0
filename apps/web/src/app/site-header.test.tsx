// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import type { UserConfig } from '@tradebot/contract';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadNamespaces } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { useAuthStore } from '../stores/auth';
import { routes } from './router';

// Issue 39: the header's personal link read "Ajustes" and led to "Configuración de la cuenta".
// A link and the page it opens go by one name: the page's heading starts with the link's.

const signedIn = (account: Partial<UserConfig>) => {
  // Nothing answers in a unit test: every request stays pending.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => undefined)),
  );
  useAuthStore.setState({
    token: 'test-token',
    isSettingsLoaded: true,
    settingsFailed: false,
    userConfig: {
      user: {
        id: 'u1',
        name: 'Ana',
        last_name: 'Paz',
        email: 'a@b.co',
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
      authorized: false,
      ...account,
    },
  });
};

beforeAll(async () => {
  await loadNamespaces(['common', 'account-settings', 'robot-settings']);
});

afterEach(async () => {
  cleanup();
  queryClient.clear();
  vi.unstubAllGlobals();
  useAuthStore.setState({ token: null, userConfig: null });
  await changeLanguage('es');
});

describe("the header's personal link and the page it opens", () => {
  it.each([
    ['es', 'a new user', {}, '/account-settings'],
    ['pt', 'a new user', {}, '/account-settings'],
    [
      'es',
      'a paid, linked user',
      { authorized: true, linked: true, login_tradear: true },
      '/profile-config',
    ],
    [
      'pt',
      'a paid, linked user',
      { authorized: true, linked: true, login_tradear: true },
      '/profile-config',
    ],
  ] as const)('share one name (%s, %s)', async (language, _who, account, path) => {
    await changeLanguage(language);
    signedIn(account);
    render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />);
    const heading = await screen.findByRole('heading', { level: 1 }, { timeout: 5000 });
    const link = within(screen.getByRole('navigation', { name: /principal/i }))
      .getAllByRole('link')
      .find((element) => element.getAttribute('href') === path);
    expect(link?.textContent).toBeTruthy();
    expect(heading.textContent).toMatch(new RegExp(`^${link?.textContent ?? ''}\\b`));
  });
});
