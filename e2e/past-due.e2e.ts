import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import { launchBrowser, pageInLanguage } from './support/browser';
import { screenshotAt, until } from './support/live-account';
import {
  authorized,
  fillCard,
  paymentCopy,
  registerThroughForm as register,
  type PaymentLanguage as Language,
} from './support/payment';
import { startServer, type RunningServer } from './support/server';

/**
 * A renewal declined and paid again with a new card (decision 058), in the browser: the card
 * that pays once and declines renewals (4000 0000 0000 0341), its renewal made due in the
 * simulated provider's books, billing's clock declines it: past_due, access gone (the guards
 * send the user to /payment, which says the charge failed and when it is retried); the user
 * opens the provider's card page, a declined card first, then 4242: the provider retries the
 * charge and tells us by the signed webhook; /payment waits for it and shows the subscription
 * active. On PostgreSQL, so that the test can move the provider's renewal date.
 */

const copy = {
  es: {
    ...paymentCopy.es,
    pastDue: 'Tu último cobro falló',
    retry: /Volveremos a intentar el cobro el \d{1,2} de \w+ de \d{4}/,
    updateCard: 'Actualizar la tarjeta',
    cardTitle: 'Cambiar la tarjeta',
    saveAndPay: /^Guardar y pagar US\$\s?29,00$/,
    active: 'Tu suscripción está activa',
    // The profile and the simulated provider's pages write money as Argentina does (loopback
    // is AR, decision 089).
    nextCharge: /el próximo cobro es de US\$.29,00 el \d{1,2} de \w+ de \d{4}/,
  },
  pt: {
    ...paymentCopy.pt,
    pastDue: 'Sua última cobrança falhou',
    retry: /Tentaremos cobrar de novo em \d{1,2} de \w+ de \d{4}/,
    updateCard: 'Atualizar o cartão',
    cardTitle: 'Trocar o cartão',
    saveAndPay: /^Salvar e pagar US\$\s?29,00$/,
    active: 'Sua assinatura está ativa',
    nextCharge: /a próxima cobrança é de US\$.29,00 em \d{1,2} de \w+ de \d{4}/,
  },
} as const;

const adminUrl = process.env.TEST_DATABASE_URL;
const databaseName = `tradebot_past_due_${String(process.pid)}_${String(Date.now())}`;
let admin: pg.Client;
let db: pg.Client;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  if (!adminUrl) return;
  admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  server = await startServer({
    DATABASE_URL: url.toString(),
    SIM_PAY_WEBHOOK_SECRET: 'e2e-past-due-webhook-secret-0123456789',
  });
  db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  if (!adminUrl) return;
  await browser.close();
  await db.end();
  await server.stop();
  await admin.query(`drop database if exists ${databaseName} with (force)`);
  await admin.end();
});

const newPage = (language: Language, width: number) =>
  pageInLanguage(browser, server.url, language, width);

/** The simulated provider's card form (its button names the retried amount). */
async function fillNewCard(page: Page, language: Language, number: string) {
  const text = copy[language];
  await page.getByLabel(text.cardName).fill('María Gonçalves');
  await page.getByLabel(text.cardNumber).fill(number);
  await page.getByLabel(text.expiry).fill('12/34');
  await page.getByLabel(text.cvc).fill('123');
  await page.getByRole('button', { name: text.saveAndPay }).click();
}

describe.runIf(adminUrl)('a declined renewal, then a new card', () => {
  it('past_due ends access and says why; the card page pays it and the webhook makes it active, in es at 360 px and pt on desktop', async () => {
    const users = [
      { language: 'es', width: 360 },
      { language: 'pt', width: 1280 },
    ] as const;
    const opened: { context: BrowserContext; page: Page; email: string }[] = [];
    try {
      for (const { language, width } of users) {
        const text = copy[language];
        const { context, page } = await newPage(language, width);
        const email = await register(page, server.dataDir, language);
        opened.push({ context, page, email });
        await page.waitForURL('**/payment');
        await page.getByRole('heading', { level: 1, name: text.welcome }).waitFor();
        await page.getByRole('button', { name: text.payMonthly }).click();
        await page.waitForURL('**/sim-pay/checkout/**');
        await fillCard(page, language, '4000 0000 0000 0341');
        await page.waitForURL('**/link-account', { timeout: 20_000 });
        expect(await authorized(page)).toBe(true);
      }

      // A month later, in the provider's books: the renewal is due now.
      await db.query(
        `update sim_pay_subscriptions
            set current_period_start = now() - interval '30 days',
                current_period_end = now() - interval '1 minute',
                next_charge_at = now() - interval '1 minute'
          where client_reference in (select id::text from users where email = any($1))`,
        [opened.map((user) => user.email)],
      );
      // Billing's clock runs every minute: the renewal is declined, the event applied.
      for (const { page } of opened) {
        await until(async () => !(await authorized(page)), 'the declined renewal', 90_000);
      }

      for (const [index, { language, width }] of users.entries()) {
        const text = copy[language];
        const page = opened[index]?.page;
        if (!page) throw new Error('no page');
        // The payment-gated pages send the user to /payment, which says why.
        await page.goto('/link-account');
        await page.waitForURL('**/payment');
        await page.getByRole('alertdialog').getByText(text.mustPay).waitFor();
        await page.getByRole('button', { name: text.accept }).click();
        await page.getByText(text.pastDue).waitFor();
        await page.getByText(text.retry).waitFor();
        expect(await page.getByRole('button', { name: text.payMonthly }).count()).toBe(0);
        await screenshotAt(page, `payment-past-due-${language}`, width);
        expect(await seriousAxeViolations(page)).toEqual([]);

        await page.getByRole('button', { name: text.updateCard }).click();
        await page.waitForURL('**/sim-pay/card?session=**');
        await page.getByRole('heading', { level: 1, name: text.cardTitle }).waitFor();
        for (const [label, autocomplete] of [
          [text.cardName, 'cc-name'],
          [text.cardNumber, 'cc-number'],
          [text.expiry, 'cc-exp'],
          [text.cvc, 'cc-csc'],
        ] as const) {
          expect(await page.getByLabel(label).getAttribute('autocomplete')).toBe(autocomplete);
        }
        await fillNewCard(page, language, '4000 0000 0000 0002');
        await page.getByRole('alert').getByText(text.declined).waitFor();
        await screenshotAt(page, `sim-card-declined-${language}`, width);
        expect(await authorized(page)).toBe(false);

        await fillNewCard(page, language, '4242 4242 4242 4242');
        await page.waitForURL('**/payment?card=updated');
        // The redirect proves nothing: the page waits for the provider's signed event.
        await page.getByText(text.active).waitFor({ timeout: 20_000 });
        await page.getByText(text.nextCharge).waitFor();
        expect(await authorized(page)).toBe(true);
        await screenshotAt(page, `payment-card-updated-${language}`, width);
      }
    } finally {
      for (const { context } of opened) await context.close();
    }
  }, 240_000);
});
