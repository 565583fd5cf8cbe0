import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { catalogueText } from './support/catalogue';
import { paymentCopy } from './support/payment';
import { confirmationLink } from './support/registration';
import { startServer, type RunningServer } from './support/server';

/**
 * Issue 23 (decisions 086 and 089): the plan chosen on the home page is kept with the pending
 * registration, so the welcome marks it even when the confirmation link is opened in another
 * browser (the phone's mail app), in es and pt at 390 and 1280 px.
 */
type Language = 'es' | 'pt';
const cases: { language: Language; width: number }[] = [
  { language: 'es', width: 390 },
  { language: 'es', width: 1280 },
  { language: 'pt', width: 390 },
  { language: 'pt', width: 1280 },
];
const prefix: Record<Language, string> = { es: '', pt: '/pt' };
const password = 'segura123';

const state = {} as { server: RunningServer; browser: Browser };
const started = state as Partial<typeof state>;

beforeAll(async () => {
  // No robot: these screens read no market, and the machine is shared.
  state.server = await startServer({ ROBOT_ENABLED: 'false' });
  state.browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await started.browser?.close();
  await started.server?.stop();
});

describe.each(cases)('the chosen plan in $language at $width px', ({ language, width }) => {
  it('is marked at the welcome after confirming in another browser', async () => {
    const copy = paymentCopy[language];
    const email = `plan-${language}-${String(width)}-${String(Date.now())}@example.com`;
    const newContext = () =>
      state.browser.newContext({
        baseURL: state.server.url,
        viewport: { width, height: 800 },
        storageState: {
          cookies: [],
          origins: [
            { origin: state.server.url, localStorage: [{ name: 'language', value: language }] },
          ],
        },
      });
    const computer = await newContext();
    const phone = await newContext();
    try {
      // On the computer: the home page's yearly plan, then the register form.
      const page = await computer.newPage();
      await page.goto(`${prefix[language]}/`);
      await page.getByRole('link', { name: copy.startYearly }).click();
      await page.waitForURL('**/register?plan=yearly');
      await page.getByLabel(copy.name, { exact: true }).fill('María');
      await page.getByLabel(copy.lastName).fill('Gonçalves');
      await page.getByLabel(copy.email).fill(email);
      await page.getByLabel(copy.password, { exact: true }).fill(password);
      await page.getByLabel(copy.confirm).fill(password);
      await page.getByRole('checkbox', { name: copy.privacyConsent }).check();
      await page.getByRole('button', { name: copy.register }).click();
      await page.getByRole('heading', { level: 1, name: copy.checkInbox }).waitFor();

      // On the phone, which never saw the home page: the link and the password.
      const link = new URL(await confirmationLink(state.server.dataDir, email));
      const other = await phone.newPage();
      await other.goto(`${link.pathname}${link.search}`);
      await other
        .getByLabel(catalogueText(language, 'auth', 'fields.password'), { exact: true })
        .fill(password);
      await other
        .getByRole('button', { name: catalogueText(language, 'auth', 'confirm.submit') })
        .click();
      await other.waitForURL('**/payment');
      await other.getByRole('heading', { level: 1, name: copy.welcome }).waitFor();
      const yearly = other.getByRole('listitem', { name: copy.yearlyName });
      await yearly.getByText(copy.chosen).waitFor();
      expect(
        await other
          .getByRole('listitem', { name: copy.monthlyName })
          .getByText(copy.chosen)
          .count(),
      ).toBe(0);
      expect(
        await other.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
    } finally {
      await phone.close();
      await computer.close();
    }
  }, 90_000);
});
