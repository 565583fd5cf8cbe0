import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { catalogueText } from './support/catalogue';
import { DEMO_ACCOUNT, startCTraderFakes, type CTraderFakes } from './support/ctrader';
import { registerThroughApi } from './support/registration';
import { startServer, type RunningServer } from './support/server';

/**
 * Issue 20 (decision 091): a paid user links a cTrader account through the fake Spotware OAuth
 * server (the granting page redirects back with code and state), picks the account the fake
 * cTrader server lists, reaches the dashboard, then unlinks it from account settings, at 360 px,
 * picking and confirming with the keyboard.
 */
const root = path.resolve(import.meta.dirname, '..');
const seedScript = path.join(root, 'apps/server/scripts/e2e-linking-seed.ts');
const accountPassword = 'Clave1234';
const email = 'ctrader-e2e@example.com';
const text = (namespace: string, key: string) => catalogueText('es', namespace, key);

describe('linking a cTrader broker through OAuth2, and unlinking it (issue 20)', () => {
  let fakes: CTraderFakes;
  let server: RunningServer;
  let browser: Browser;
  let dataDir: string;

  beforeAll(async () => {
    fakes = await startCTraderFakes();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-ctrader-'));
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

  async function logIn(page: Page) {
    await page.goto('/login');
    await page.getByLabel(text('auth', 'fields.email')).fill(email);
    await page.getByLabel(text('auth', 'fields.password'), { exact: true }).fill(accountPassword);
    await page.getByRole('button', { name: text('auth', 'login.submit') }).click();
  }

  async function acceptOverlay(page: Page, message: string) {
    const overlay = page.getByRole('alertdialog');
    await overlay.getByText(message).waitFor();
    await overlay.getByRole('button', { name: text('common', 'overlay.accept') }).click();
    await overlay.waitFor({ state: 'detached' });
  }

  it('links through the fake cTrader ID, picks the account, reaches the dashboard, and unlinks', async () => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 360, height: 800 },
      locale: 'es-AR',
    });
    const page = await context.newPage();
    await logIn(page);
    await page.waitForURL('**/link-account');
    await acceptOverlay(page, text('common', 'guards.linkRequired'));

    // Both choices, the built-in one said to be simulated.
    await page.getByRole('heading', { name: text('linking', 'platform.choice') }).waitFor();
    await page
      .getByRole('heading', { level: 2, name: text('linking', 'ctrader.title') })
      .first()
      .waitFor();
    const connect = page.getByRole('button', { name: text('linking', 'ctrader.connect') });
    await connect.waitFor();
    expect(await connect.isEnabled()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Nothing wider than the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );

    // To cTrader ID (the fake approves at once) and back with code and state.
    await connect.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/link-account/ctrader/callback');
    const asked = fakes.oauth.authorizeRequests.at(-1);
    expect(asked).toMatchObject({
      client_id: 'app-client-id',
      scope: 'trading',
      redirect_uri: `${server.url}/link-account/ctrader/callback`,
    });
    // The picker: the fake's demo account, with its currency and leverage.
    const account = page.getByRole('radio');
    await account.first().waitFor();
    await page.getByText(`Fake Markets · ${String(DEMO_ACCOUNT.traderLogin)}`).waitFor();
    await page.getByText('Demo · USD · apalancamiento 1:100').waitFor();
    // The code left the address bar once used.
    expect(page.url()).not.toContain('code=');
    expect(await seriousAxeViolations(page)).toEqual([]);
    const link = page.getByRole('button', { name: text('linking', 'ctrader.link') });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    expect(
      fakes.oauth.tokenRequests.filter((r) => r.grant_type === 'authorization_code'),
    ).toHaveLength(1);

    // Account settings: the unlink card, operations left open by default, password, dialog.
    await page.goto('/account-settings');
    const card = page.getByRole('region', { name: text('account-settings', 'unlink.title') });
    await card.waitFor();
    await card.getByLabel(text('account-settings', 'unlink.password')).fill(accountPassword);
    await card.getByRole('button', { name: text('account-settings', 'unlink.submit') }).click();
    const dialog = page.getByRole('alertdialog', {
      name: text('account-settings', 'unlink.confirmTitle'),
    });
    await dialog.getByText(text('account-settings', 'unlink.confirmLeave')).waitFor();
    await dialog.getByRole('button', { name: text('account-settings', 'unlink.confirm') }).click();
    await acceptOverlay(page, text('account-settings', 'unlink.done'));
    // Unlinked: the card is gone, and the dashboard's guard sends the user to link again.
    await card.waitFor({ state: 'detached' });
    await page.goto('/dashboard');
    await page.waitForURL('**/link-account');
    await context.close();
  }, 120_000);
});
