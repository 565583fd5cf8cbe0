import type { UserConfig } from '@tradebot/contract';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { useAuthStore } from '../stores/auth';
import { renderRoute } from '../test/render-route';

/**
 * The pages that read server state through TanStack Query, rendered through the app's own
 * route tree and layouts: a page outside the server-state layout has no QueryClient and fails
 * here (issue 19; a test that wraps the component in its own provider cannot see that).
 */
async function renderPage(path: string): Promise<string> {
  const { html, location, errors } = await renderRoute(path);
  expect(location.pathname).toBe(path.split('?')[0]);
  expect(errors).toBeNull();
  return html;
}

beforeAll(async () => {
  await changeLanguage('es');
});

afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
});

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
    userConfig: { linked: false, login_tradear: false, authorized: true, ...account } as UserConfig,
  });
};

describe('pages on server state, through the router', () => {
  it('renders /link-account with the cTrader card loading', async () => {
    signedIn({});
    const html = await renderPage('/link-account');
    expect(html).toContain('cTrader');
  });

  it('renders the cTrader callback page', async () => {
    signedIn({});
    const html = await renderPage('/link-account/ctrader/callback?code=c&state=s');
    expect(html).toContain('<main');
  });
});
