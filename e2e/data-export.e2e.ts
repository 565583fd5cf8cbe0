import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import { logInDemo, screenshotAt, useLiveAccountPage } from './support/live-account';

/**
 * "Descargar mis datos" / "Baixar meus dados" in the account settings (issue 39; LGPD art. 18;
 * decision 153): one keyboard press gives a JSON file with everything we hold, and nothing
 * secret. The demo user's file is measured here (its size goes to the decision).
 */
describe('downloading my data', () => {
  const state = useLiveAccountPage();

  it('gives the demo user a JSON file of every section, from the keyboard (es, 360 and 1280 px)', async () => {
    const { page } = state;
    await logInDemo(page);
    await page.goto('/account-settings');
    const button = page.getByRole('button', { name: 'Descargar mis datos' });
    await button.waitFor();
    await button.scrollIntoViewIfNeeded();
    await screenshotAt(page, 'account-data-export', 360);
    await screenshotAt(page, 'account-data-export', 1280);
    expect(await seriousAxeViolations(page)).toEqual([]);

    const download = page.waitForEvent('download');
    const started = Date.now();
    await button.focus();
    await page.keyboard.press('Enter');
    const file = await download;
    const took = Date.now() - started;
    expect(file.suggestedFilename()).toMatch(/^tradebot-data-\d{4}-\d{2}-\d{2}\.json$/);
    const text = await fs.readFile(await file.path(), 'utf8');
    const data = JSON.parse(text) as Record<string, unknown> & {
      profile: { email: string };
      operations: unknown[];
    };
    expect(data.profile.email).toBe('demo@tradebot.app');
    for (const section of [
      'profile',
      'robotSettings',
      'consents',
      'sessions',
      'subscriptions',
      'payments',
      'brokerLinks',
      'operations',
      'notificationSettings',
      'supportMessages',
    ]) {
      expect(data).toHaveProperty(section);
    }
    expect(text).not.toMatch(/argon2|Ciphertext|tokenHash|passwordHash/);
    await page.getByText(/^Listo: se descargó tradebot-data-/).waitFor();
    // The measurement decision 153 quotes.
    console.info(
      `demo user's export: ${String(Buffer.byteLength(text))} bytes, ` +
        `${String(data.operations.length)} operations, ${String(took)} ms from the click`,
    );
  }, 120_000);

  it('says it in Portuguese', async () => {
    const { page } = state;
    await logInDemo(page);
    await page.goto('/pt/account-settings');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Baixar meus dados' }).click();
    await download;
    await page.getByText(/^Pronto: tradebot-data-.+ foi baixado\.$/).waitFor();
  }, 120_000);
});
