import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EURUSD } from '../packages/robot/test-support/ctrader-fake/index';
import { seriousAxeViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { catalogueText } from './support/catalogue';
import { startCTraderFakes, type CTraderFakes } from './support/ctrader';
import { registerThroughApi } from './support/registration';
import { startServer, type RunningServer } from './support/server';

/**
 * Issue 36, "the user's own broker's prices" (decision 144): a paid user links the fake cTrader
 * broker, whose tick history is the shared OANDA sample moved into the last 7 days; the dashboard
 * shows the backtest's progress while the broker's ticks are downloaded, then the sentence with
 * what the robot would have done, in Spanish and in Portuguese, at 360 px.
 */
const root = path.resolve(import.meta.dirname, '..');
const seedScript = path.join(root, 'apps/server/scripts/e2e-linking-seed.ts');
const oanda = path.resolve(root, '..', 'shared', 'market-data', 'oanda-2014-05');
const accountPassword = 'Clave1234';
const email = 'ctrader-backtest-e2e@example.com';
const text = (namespace: string, key: string) => catalogueText('es', namespace, key);
/** The sentence's words before its first figure. */
const opening = (language: 'es' | 'pt') =>
  catalogueText(language, 'linking', 'brokerBacktest.sentence_other').split('{{days}}')[0] ?? '';

describe("the robot on the linked broker's own prices (issue 36)", () => {
  let fakes: CTraderFakes;
  let server: RunningServer;
  let browser: Browser;
  let dataDir: string;

  beforeAll(async () => {
    // The broker recorded the last two days of the sample (the request asks for seven).
    fakes = await startCTraderFakes([EURUSD], { folder: oanda, days: 2 });
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-ctrader-backtest-'));
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
    server = await startServer({ ROBOT_WARM_UP_MS: '0', ...fakes.env }, { dataDir });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser.close();
    await server.stop();
    await fakes.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('links, shows the progress, then the result sentence in es and pt', async () => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 360, height: 800 },
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

    // The broker's history is held while the page is looked at: the run shows its progress.
    const release = fakes.ctrader.holdTickData();
    await page.getByRole('button', { name: text('linking', 'ctrader.connect') }).click();
    await page.waitForURL('**/link-account/ctrader/callback');
    await page.getByRole('radio').first().waitFor();
    await page.getByRole('button', { name: text('linking', 'ctrader.link') }).click();
    await page.waitForURL('**/dashboard');

    const card = page.getByRole('region', { name: text('linking', 'brokerBacktest.title') });
    const bar = card.getByRole('progressbar', { name: text('linking', 'brokerBacktest.progress') });
    await bar.waitFor({ timeout: 30_000 });
    expect(await bar.getAttribute('aria-valuenow')).toBe('0');
    expect(await seriousAxeViolations(page)).toEqual([]);
    release();

    // The broker's week of EURUSD downloaded and replayed: the sentence, with its figures.
    const sentence = card.getByTestId('broker-backtest-sentence');
    await sentence.waitFor({ timeout: 150_000 });
    const es = (await sentence.textContent()) ?? '';
    expect(es.startsWith(opening('es'))).toBe(true);
    expect(es).toMatch(
      /últimos 7 días, este robot habría abierto \d+ operaci(ón|ones), con un resultado de .+; no encontró ventaja el [\d.,]+\s?% del tiempo\.$/,
    );
    await card.getByText('EURUSD', { exact: false }).first().waitFor();
    expect(fakes.ctrader.requests('ProtoOAGetTickDataReq').length).toBeGreaterThan(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );

    // The same result in Portuguese.
    await page.goto('/pt/dashboard');
    const pt = page.getByTestId('broker-backtest-sentence');
    await pt.waitFor({ timeout: 30_000 });
    const ptText = (await pt.textContent()) ?? '';
    expect(ptText.startsWith(opening('pt'))).toBe(true);
    expect(ptText).toMatch(
      /últimos 7 dias, este robô teria aberto \d+ operaç(ão|ões), com um resultado de .+; não encontrou vantagem em [\d.,]+\s?% do tempo\.$/,
    );
    await context.close();
  }, 240_000);
});
