import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTCUSD } from '../packages/robot/test-support/ctrader-fake/index';
import { launchBrowser } from './support/browser';
import { catalogueText } from './support/catalogue';
import { DEMO_ACCOUNT, startCTraderFakes, type CTraderFakes } from './support/ctrader';
import { fastMarket, robotOnInEveryCategory, tradingData, until } from './support/live-account';
import { registerThroughApi } from './support/registration';
import { startServer, type RunningServer } from './support/server';

/**
 * Issue 20, step 3 (decision 096): a paid user links the fake cTrader broker's demo account
 * through the fake Spotware OAuth, switches the robot on, and watches it trade on the fake's
 * prices: the order reaches the fake broker and the operation shows on the dashboard without a
 * reload; then the user unlinks, closing it, and the robot's connection ends.
 */
const root = path.resolve(import.meta.dirname, '..');
const seedScript = path.join(root, 'apps/server/scripts/e2e-linking-seed.ts');
const accountPassword = 'Clave1234';
const email = 'ctrader-robot-e2e@example.com';
const text = (namespace: string, key: string) => catalogueText('es', namespace, key);

async function operationIds(list: Locator): Promise<string[]> {
  return list.evaluateAll((items) =>
    items.map((item) => item.getAttribute('data-operation-id') ?? ''),
  );
}

// The fake's prices carry the wall clock, and the robot rightly trades nothing on a closed
// market: the fake broker lists BTCUSD, which trades every day, so this runs on any day
// (decision 096, amended).
describe('the robot trades a linked cTrader account (issue 20)', () => {
  let fakes: CTraderFakes;
  let server: RunningServer;
  let browser: Browser;
  let dataDir: string;
  let ticker: NodeJS.Timeout | undefined;
  /** Where the fake's market moves from, above BTCUSD's bid (a test lifts it to a take-profit). */
  let lift = 0;

  beforeAll(async () => {
    // A symbol of the broker's that matches none of our instruments: listed, never traded.
    fakes = await startCTraderFakes([BTCUSD, { ...BTCUSD, symbolId: 301, symbolName: 'ZZZ/QQQ' }]);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-ctrader-robot-'));
    const first = await startServer({ ROBOT_WARM_UP_MS: '0' }, { dataDir });
    await registerThroughApi(first.url, dataDir, {
      name: 'Lucía',
      last_name: 'Prado',
      email,
      password: accountPassword,
      confirm_password: accountPassword,
      accept_terms: true,
    });
    expect(await first.stop()).toBe(0);
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', seedScript, 'paid', email], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    expect(seeded.status, seeded.stderr).toBe(0);
    server = await startServer({ ROBOT_WARM_UP_MS: '0', ...fastMarket, ...fakes.env }, { dataDir });
    browser = await launchBrowser();
    // The fake broker's market: BTCUSD moves a little every 100 ms.
    let step = 0;
    ticker = setInterval(() => {
      step++;
      const bid = BTCUSD.bid + lift + (step % 7) * 0.01;
      fakes.ctrader.setPrice(BTCUSD.symbolId, bid, bid + BTCUSD.ask - BTCUSD.bid);
    }, 100);
  }, 180_000);
  afterAll(async () => {
    clearInterval(ticker);
    await browser.close();
    await server.stop();
    await fakes.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('links through the fake cTrader ID, trades on the fake prices, shows it live, and unlinks', async () => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1280, height: 800 },
      locale: 'es-AR',
    });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel(text('auth', 'fields.email')).fill(email);
    await page.getByLabel(text('auth', 'fields.password'), { exact: true }).fill(accountPassword);
    await page.getByRole('button', { name: text('auth', 'login.submit') }).click();
    await page.waitForURL('**/link-account');
    const overlay = page.getByRole('alertdialog');
    await overlay.getByRole('button', { name: text('common', 'overlay.accept') }).click();
    await overlay.waitFor({ state: 'detached' });

    // Through the fake cTrader ID and back; the demo account picked.
    await page.getByRole('button', { name: text('linking', 'ctrader.connect') }).click();
    await page.waitForURL('**/link-account/ctrader/callback');
    await page.getByRole('radio').first().waitFor();
    await page.getByRole('button', { name: text('linking', 'ctrader.link') }).click();
    await page.waitForURL('**/dashboard');

    await robotOnInEveryCategory(page, 2);

    // The account's figures are the broker's: its balance, 10,000.00.
    const data = await until(async () => {
      const read = await tradingData(page);
      return read.account ? read : undefined;
    }, 'the broker account on the dashboard');
    expect(data.account?.balance).toBe(DEMO_ACCOUNT.balance / 100);
    // Labelled for what it is: the broker's demo account.
    expect(data.accountKind).toBe('demo');
    await page
      .getByTestId('account-kind')
      .getByText(text('dashboard', 'account.kind.demo'))
      .waitFor();

    // The broker's symbols the robot does not trade, and why, open from the account card with
    // the keyboard (decision 101).
    const untradable = page.getByTestId('untradable-symbols');
    await untradable.locator('summary').focus();
    await page.keyboard.press('Enter');
    await untradable.getByText('ZZZ/QQQ').waitFor();

    // An operation opens at the fake broker and appears on the open page without a reload.
    const open = page.locator('ul[aria-labelledby="open-operations-title"] [data-operation-id]');
    const id = await until(
      async () => (await operationIds(open)).find((found) => found.startsWith('ct')),
      'an operation at the cTrader broker on the dashboard',
      90_000,
    );
    expect(id).toMatch(new RegExp(`^ct${String(DEMO_ACCOUNT.ctidTraderAccountId)}-`));
    const orders = fakes.ctrader.requests('ProtoOANewOrderReq');
    expect(orders.length).toBeGreaterThan(0);
    // One pip of BTCUSD ($1) in the API's 1/100000 of a price unit.
    expect(orders[0]?.body).toMatchObject({
      orderType: 'MARKET',
      symbolId: BTCUSD.symbolId,
      relativeTakeProfit: 100_000,
    });
    expect(fakes.ctrader.openPositions(DEMO_ACCOUNT.ctidTraderAccountId).length).toBeGreaterThan(0);

    // The broker refuses the next order (its market closed unannounced): the refusal is listed
    // with its reason in words, and the section fits a 360 px phone (decision 101). The open
    // operation first reaches its take-profit (the spread and a pip away), so the robot opens again.
    fakes.ctrader.setMarketOpen(false);
    const sentBefore = fakes.ctrader.requests('ProtoOANewOrderReq').length;
    const [position] = fakes.ctrader.openPositions(DEMO_ACCOUNT.ctidTraderAccountId);
    lift = position?.side === 'SELL' ? -100 : 100;
    try {
      await until(
        () =>
          Promise.resolve(
            fakes.ctrader.requests('ProtoOANewOrderReq').length > sentBefore ? true : undefined,
          ),
        'an order sent while the broker says its market is closed',
        60_000,
      );
      await page.setViewportSize({ width: 360, height: 800 });
      const refusals = page.locator('ul[aria-labelledby="rejections-title"] li');
      await until(
        async () => {
          await page.reload();
          await page
            .getByRole('heading', { name: text('dashboard', 'rejections.title') })
            .waitFor();
          return (await refusals.count()) > 0 ? true : undefined;
        },
        'the refused order on the dashboard',
        30_000,
      );
      await refusals
        .first()
        .getByText(text('dashboard', 'rejections.reasons.MARKET_CLOSED'))
        .waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      );
    } finally {
      fakes.ctrader.setMarketOpen(true);
    }

    // Unlinked, closing what is open: the positions close at the broker and the robot leaves.
    const unlinked = await page.evaluate(async (password) => {
      const response = await fetch('/core-api/public/api/v1/unlink-account', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ password, closeOperations: true }),
      });
      return response.status;
    }, accountPassword);
    expect(unlinked).toBe(200);
    await until(
      () =>
        Promise.resolve(
          fakes.ctrader.openPositions(DEMO_ACCOUNT.ctidTraderAccountId).length === 0 &&
            fakes.ctrader.connections === 0,
        ),
      'the positions closed and the robot disconnected at the broker',
      30_000,
    );
    const sent = fakes.ctrader.requests('ProtoOANewOrderReq').length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(fakes.ctrader.requests('ProtoOANewOrderReq').length).toBe(sent);
    await page.goto('/dashboard');
    await page.waitForURL('**/link-account');
    await context.close();
  }, 240_000);
});
