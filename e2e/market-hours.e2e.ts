import type { Category } from '@tradebot/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { catalogueText } from './support/catalogue';
import {
  fastMarket,
  logInDemo,
  postRobotSettings,
  tradingData,
  until,
} from './support/live-account';
import { startServer, type RunningServer } from './support/server';

/**
 * Weekends on purpose (issue 41): every other end-to-end server runs on a pinned weekday, so
 * this one pins its market to a Saturday noon UTC. With only categories that close at weekends,
 * the dashboard says the markets are closed; with crypto, which trades every day, it trades.
 */
describe('a Saturday on the simulated market', () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer({ ...fastMarket, MARKET_START: '2026-11-28T12:00:00Z' });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('says the markets of the chosen categories are closed, and trades crypto', async () => {
    if (!server || !browser) throw new Error('the server or the browser did not start');
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    await logInDemo(page);
    const choose = (categories: Record<Category, boolean>) =>
      postRobotSettings(page, { bot_on: true, risk: 1, categories });
    const weekdaysOnly = {
      forex: true,
      cripto: false,
      stocks: true,
      index: true,
      commodities: true,
    };
    await choose(weekdaysOnly);

    const robot = await until(async () => {
      const { robot } = await tradingData(page);
      return robot.idleReason === 'MARKET_CLOSED' ? robot : undefined;
    }, 'the robot to say the markets are closed');
    expect(robot).toMatchObject({ bot_on: true, trading: false });
    await page.reload();
    await page
      .getByTestId('robot-state')
      .getByText(catalogueText('es', 'dashboard', 'robot.idle.MARKET_CLOSED'))
      .waitFor();
    // The same, for a reader in Portuguese.
    await page.goto('/pt/dashboard');
    await page
      .getByTestId('robot-state')
      .getByText(catalogueText('pt', 'dashboard', 'robot.idle.MARKET_CLOSED'))
      .waitFor();

    // Crypto trades on Saturdays: the robot leaves its wait and opens an operation.
    await choose({ ...weekdaysOnly, cripto: true });
    const opened = await until(
      async () => (await tradingData(page)).trades[0],
      'an operation on a Saturday',
      90_000,
    );
    expect(opened.category).toBe('cripto');
    await context.close();
  }, 240_000);
});
