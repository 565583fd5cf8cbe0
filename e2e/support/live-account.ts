import fs from 'node:fs/promises';
import path from 'node:path';
import type { Category, TradingData } from '@tradebot/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { launchBrowser } from './browser';
import { startServer, type RunningServer } from './server';

/**
 * A server of its own, with a market fast enough for a test to watch operations open and close
 * (MARKET_SPEED simulated ms per wall-clock ms), so that what one file does to the demo
 * account does not leak into another file.
 */
/**
 * Ten times real time, a fixed seed, and the test-only strategy (decision 093): the calibrated
 * model may honestly find no edge for hours, and these tests need operations. The server takes
 * ROBOT_TEST_ONLY_STRATEGY only under NODE_ENV=test.
 */
export const fastMarket = {
  MARKET_SPEED: '10',
  MARKET_SEED: '11',
  NODE_ENV: 'test',
  ROBOT_TEST_ONLY_STRATEGY: 'always-signal',
};

export interface LiveAccountContext {
  server: RunningServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/** The server and browser per file, a fresh context (empty storage) per test. */
export function useLiveAccountPage() {
  const state = {} as LiveAccountContext;
  // Filled by beforeAll; either may be missing when the other failed to start.
  const started = state as Partial<LiveAccountContext>;
  beforeAll(async () => {
    state.server = await startServer(fastMarket);
    state.browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.stop();
  });
  beforeEach(async () => {
    state.context = await state.browser.newContext({
      baseURL: state.server.url,
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    state.page = await state.context.newPage();
  });
  afterEach(async () => {
    await state.context.close();
  });
  return state;
}

export async function logInDemo(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill('demo@tradebot.app');
  await page.getByLabel('Contraseña', { exact: true }).fill('Demo1234');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/dashboard');
}

/** GET get-all-data from inside the page, with the page's token. */
export async function tradingData(page: Page, query = ''): Promise<TradingData> {
  return page.evaluate(async (search) => {
    const response = await fetch(`/core-api/public/api/v1/get-all-data${search}`, {
      headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
    });
    if (!response.ok) throw new Error(`get-all-data answered ${String(response.status)}`);
    return ((await response.json()) as { data: TradingData }).data;
  }, query);
}

/** POST settings (spec §7) through the page's session, as the settings screen sends them. */
export async function postRobotSettings(
  page: Page,
  settings: { bot_on: boolean; risk: number; categories: Record<Category, boolean> },
): Promise<void> {
  const status = await page.evaluate(async ({ categories, ...rest }) => {
    const response = await fetch('/core-api/public/api/v1/settings', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ ...rest, categories_enabled: JSON.stringify(categories) }),
    });
    return response.status;
  }, settings);
  if (status !== 200) throw new Error(`POST settings answered ${String(status)}`);
}

/**
 * The robot on in every category. A test that waits for operations calls it first: crypto
 * trades every day, so operations open at whatever instant the market is pinned to (issue 41),
 * whatever an earlier test of the file left chosen.
 */
export async function robotOnInEveryCategory(page: Page, risk = 1): Promise<void> {
  const every = { forex: true, cripto: true, stocks: true, index: true, commodities: true };
  await postRobotSettings(page, { bot_on: true, risk, categories: every });
}

/** Polls until the check passes, or fails with what it waited for. */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const artifactsDir = path.resolve(import.meta.dirname, '../artifacts');

/**
 * A screenshot at a width, kept under e2e/artifacts/ (gitignored): the whole page, or the
 * viewport for a modal (fixed layers cover the viewport only). Fails if the page scrolls
 * sideways.
 */
export async function screenshotAt(
  page: Page,
  name: string,
  width: number,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<string> {
  await fs.mkdir(artifactsDir, { recursive: true });
  await page.setViewportSize({ width, height: 800 });
  // Let the layout (and the chart, which sizes itself to its box) settle at the new width.
  await page.waitForTimeout(400);
  const file = path.join(artifactsDir, `${name}-${String(width)}.png`);
  await page.screenshot({ path: file, fullPage });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  if (overflow > 0)
    throw new Error(`${name} at ${String(width)} px scrolls sideways by ${String(overflow)} px`);
  return file;
}
