import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, pageInLanguage } from './support/browser';
import { startServer, type RunningServer } from './support/server';

/**
 * When get-all-data fails (issue 22): the dashboard says so in the user's language, never with
 * the browser's "Failed to fetch" or an HTTP status text, shows the server's message when the
 * answer carries one, and tries again by itself. The failures are made in the browser's
 * network layer; the server and the app are the real ones.
 */

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const allData = '**/core-api/public/api/v1/get-all-data*';
const realtime = '**/core-api/realtime/**';

/**
 * The live data cannot arrive: get-all-data fails as `fail` says, and the real-time channel
 * (which would otherwise bring the account by itself) is unreachable too.
 */
async function cutLiveData(page: Page, fail: Parameters<Page['route']>[1]): Promise<void> {
  await page.route(allData, fail);
  await page.route(realtime, (route) => route.abort('internetdisconnected'));
  await page.routeWebSocket(/\/core-api\/realtime\//, (socket) => {
    void socket.close();
  });
}

async function restoreLiveData(page: Page): Promise<void> {
  await page.unroute(allData);
  await page.unroute(realtime);
}

/** Signs the demo in through the API and stores its token as the login screen does. */
async function signInDemo(page: Page): Promise<void> {
  await page.goto('/');
  await page.evaluate(async () => {
    const response = await fetch('/core-api/public/api/v1/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'demo@tradebot.app', password: 'Demo1234', rememberMe: false }),
    });
    const body = (await response.json()) as { data: { token: string } };
    localStorage.setItem('token', body.data.token);
  });
}

const copy = {
  es: {
    title: 'No pudimos cargar tu cartera.',
    unreachable: 'No pudimos conectar con el servidor',
    retrying: 'Lo intentamos de nuevo cada pocos segundos.',
    balance: 'Saldo',
  },
  pt: {
    title: 'Não conseguimos carregar sua carteira.',
    unreachable: 'Não conseguimos conectar ao servidor',
    retrying: 'Tentamos de novo a cada poucos segundos.',
    balance: 'Saldo',
  },
} as const;

describe('the dashboard when get-all-data fails', () => {
  it.each([
    ['es', 'abort'],
    ['pt', 'status'],
  ] as const)(
    'in %s (%s): a translated state, no raw error text, and it recovers by itself',
    async (language, failure) => {
      const text = copy[language];
      const { context, page } = await pageInLanguage(browser, server.url, language, 360);
      try {
        await signInDemo(page);
        await cutLiveData(page, (route) =>
          failure === 'abort'
            ? route.abort('internetdisconnected')
            : route.fulfill({ status: 502, contentType: 'text/html', body: '' }),
        );
        await page.goto('/dashboard');
        const alert = page.getByRole('alert').filter({ hasText: text.title });
        await alert.getByText(text.unreachable).waitFor({ timeout: 20_000 });
        await alert.getByText(text.retrying).waitFor();
        const shown = await page.locator('main').innerText();
        expect(shown).not.toMatch(/Failed to fetch|Bad Gateway|TypeError|\b502\b/);

        // The connection is back: the portfolio arrives without a click.
        await restoreLiveData(page);
        await page
          .getByRole('term')
          .filter({ hasText: new RegExp(`^${text.balance}$`) })
          .waitFor({ timeout: 20_000 });
        expect(await alert.count()).toBe(0);
      } finally {
        await context.close();
      }
    },
    90_000,
  );

  it("shows the server's message when the answer carries one", async () => {
    const { context, page } = await pageInLanguage(browser, server.url, 'es', 1280);
    try {
      await signInDemo(page);
      await cutLiveData(page, (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({
            code: 'SERVICE_UNAVAILABLE',
            message: 'La plataforma de trading no responde en este momento.',
          }),
        }),
      );
      await page.goto('/dashboard');
      const alert = page.getByRole('alert').filter({ hasText: copy.es.title });
      await alert
        .getByText('La plataforma de trading no responde en este momento.')
        .waitFor({ timeout: 20_000 });
      await alert.getByText(copy.es.retrying).waitFor();
    } finally {
      await context.close();
    }
  }, 60_000);
});
