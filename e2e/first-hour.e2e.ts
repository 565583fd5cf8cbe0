import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { catalogueText } from './support/catalogue';
import { fastMarket, screenshotAt } from './support/live-account';
import { headerRowSpread } from './support/page';
import { paymentCopy, registerThroughForm } from './support/payment';
import { startServer, type RunningServer } from './support/server';

/**
 * Issue 23, "A newcomer's first hour": each point as a new user meets it, in Spanish and
 * Portuguese, at 390 px (a phone) and 1280 px (decisions 074, 075).
 */
type Language = 'es' | 'pt';
const cases: { language: Language; width: number }[] = [
  { language: 'es', width: 390 },
  { language: 'es', width: 1280 },
  { language: 'pt', width: 390 },
  { language: 'pt', width: 1280 },
];
const browserLocale: Record<Language, string> = { es: 'es-AR', pt: 'pt-BR' };
const prefix: Record<Language, string> = { es: '', pt: '/pt' };
const text = (language: Language, namespace: string, key: string) =>
  catalogueText(language, namespace, key);

const state = {} as { server: RunningServer; browser: Browser };
const started = state as Partial<typeof state>;

beforeAll(async () => {
  state.server = await startServer(fastMarket);
  state.browser = await launchBrowser();
}, 90_000);
afterAll(async () => {
  await started.browser?.close();
  await started.server?.stop();
});

/** A first visit: a new context whose browser speaks the language (its Accept-Language). */
async function firstVisit(
  language: Language,
  width: number,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await state.browser.newContext({
    baseURL: state.server.url,
    viewport: { width, height: 800 },
    locale: browserLocale[language],
  });
  return { context, page: await context.newPage() };
}

/**
 * The demo's session, from its first sign-in through the form in this file. Every sign-in from
 * one address counts against the limits (decision 067: ten per account and address in 15
 * minutes), and this file has more newcomers than that: the others reuse the session.
 */
let demoToken: string | undefined;

/** Signs the demo in (the login page of `language` the first time), then opens `path`. */
async function demoIn(page: Page, language: Language, path: string): Promise<void> {
  await page.goto(`${prefix[language]}/login`);
  if (demoToken) {
    await page.evaluate((token) => {
      localStorage.setItem('token', token);
    }, demoToken);
    await page.goto(`${prefix[language]}/dashboard`);
  } else {
    await page.getByLabel(text(language, 'auth', 'fields.email')).fill('demo@tradebot.app');
    await page
      .getByLabel(text(language, 'auth', 'fields.password'), { exact: true })
      .fill('Demo1234');
    await page.getByRole('button', { name: text(language, 'auth', 'login.submit') }).click();
  }
  await page.waitForURL('**/dashboard');
  demoToken ??= (await page.evaluate(() => localStorage.getItem('token'))) ?? undefined;
  if (path !== '/dashboard') await page.goto(`${prefix[language]}${path}`);
}

describe.each(cases)('a newcomer in $language at $width px', ({ language, width }) => {
  it('lands on the site in the browser language on the first visit', async () => {
    const { context, page } = await firstVisit(language, width);
    try {
      const response = await page.goto('/');
      expect(response?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe(language === 'pt' ? '/pt' : '/');
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      await page
        .getByRole('heading', { level: 1, name: text(language, 'home', 'title') })
        .waitFor();
      // The page stored the choice (the language cookie mirrors it): it keeps applying.
      await page.waitForFunction(() => document.cookie.includes('language='));
      await page.goto('/');
      expect(new URL(page.url()).pathname).toBe(language === 'pt' ? '/pt' : '/');
      // A stored choice wins over the browser's languages. It is written where the app does
      // not run: a page still starting (its catalogue loading) writes its own language back
      // when it is done, which made this case time out now and then under load.
      const other: Language = language === 'pt' ? 'es' : 'pt';
      await page.goto('/favicon.svg');
      await page.evaluate((chosen) => {
        localStorage.setItem('language', chosen);
        document.cookie = `language=${chosen}; Path=/`;
      }, other);
      await page.goto('/');
      await page.waitForFunction((lang) => document.documentElement.lang === lang, other);
      expect(new URL(page.url()).pathname).toBe(other === 'pt' ? '/pt' : '/');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('after confirming the e-mail: a welcome, the plan chosen on the home page, the platform and its simulated money before paying', async () => {
    const copy = paymentCopy[language];
    const { context, page } = await firstVisit(language, width);
    try {
      await page.goto(`${prefix[language]}/`);
      await page.getByRole('link', { name: copy.startYearly }).click();
      await page.waitForURL('**/register?plan=yearly');
      await page.waitForFunction(() => localStorage.getItem('tradebot.chosenPlan') === 'yearly');

      await registerThroughForm(page, state.server.dataDir, language);
      await page.waitForURL('**/payment');
      await page.getByRole('heading', { level: 1, name: copy.welcome }).waitFor();
      // Signed in and not yet paid (the free month offered): the header is still one row, and
      // its personal link is account settings, since the profile needs payment and a link.
      if (width >= 1216) {
        expect(await headerRowSpread(page)).toBeLessThan(12);
        const settings = page
          .getByRole('navigation', { name: text(language, 'common', 'nav.main') })
          .getByRole('link', { name: text(language, 'common', 'nav.settings') });
        expect(await settings.getAttribute('href')).toMatch(/\/account-settings$/);
      }
      const platform = page.getByRole('region', { name: copy.platformTitle });
      await platform.getByText(copy.simulated).waitFor();
      const yearly = page.getByRole('listitem', { name: copy.yearlyName });
      await yearly.getByText(copy.chosen).waitFor();
      // No error after confirming: the guard's message is not shown.
      expect(await page.getByRole('alertdialog').count()).toBe(0);
      expect(await page.getByText(copy.mustPay).count()).toBe(0);
      expect(
        await page.getByRole('listitem', { name: copy.monthlyName }).getByText(copy.chosen).count(),
      ).toBe(0);
      // Said before the plans and their pay buttons, not after.
      expect(
        await page.evaluate(() => {
          const disclosure = document.getElementById('platform-title');
          const plans = document.getElementById('plan-monthly');
          return Boolean(
            disclosure &&
            plans &&
            disclosure.compareDocumentPosition(plans) & Node.DOCUMENT_POSITION_FOLLOWING,
          );
        }),
      ).toBe(true);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await screenshotAt(page, `payment-welcome-${language}`, width);
      if (width === 390) expect(await seriousAxeViolations(page)).toEqual([]);

      // Later, a paid screen still says why it is closed.
      await page.goto(`${prefix[language]}/dashboard`);
      await page.getByRole('alertdialog').getByText(copy.mustPay).waitFor();
      await page.getByRole('button', { name: copy.accept }).click();
      await page.waitForURL('**/payment');
      await page.getByRole('heading', { level: 1, name: copy.paymentTitle }).waitFor();
      await yearly.getByText(copy.chosen).waitFor();
    } finally {
      await context.close();
    }
  }, 60_000);

  it('gives a robotbitcoin landing only to a linkable broker of the directory', async () => {
    const { context, page } = await firstVisit(language, width);
    try {
      const scam = await page.goto(
        `${prefix[language]}/promo/robotbitcoin-estafa-garantizada-1000-por-ciento`,
      );
      expect(scam?.status()).toBe(404);
      await page
        .getByRole('heading', { level: 1, name: text(language, 'common', 'notFound.title') })
        .waitFor();
      expect(await page.locator('body').innerText()).not.toMatch(/estafa|garantizada/i);

      // A broker of the demo's directory the robot does not work with (issue 39): no page
      // invites the reader to connect an account there, as if the address named no broker.
      const unlinkable = await page.goto(
        `${prefix[language]}/promo/robotbitcoin-corredora-andina-ejemplo`,
      );
      expect(unlinkable?.status()).toBe(404);
      await page
        .getByRole('heading', { level: 1, name: text(language, 'common', 'notFound.title') })
        .waitFor();
      expect(await page.locator('body').innerText()).not.toMatch(/Corredora Andina/i);

      // The generic landing names no broker.
      const generic = await page.goto(`${prefix[language]}/promo/robotbitcoin-`);
      expect(generic?.status()).toBe(200);
      await page
        .getByRole('heading', {
          level: 1,
          name: text(language, 'promo', 'robotBitcoin.titleGeneric'),
        })
        .waitFor();
    } finally {
      await context.close();
    }
  });

  it('reads the privacy policy on the sealed trading-platform credentials', async () => {
    const { context, page } = await firstVisit(language, width);
    try {
      await page.goto(`${prefix[language]}/privacy-policy`);
      const sections = JSON.parse(
        fs.readFileSync(
          path.resolve(import.meta.dirname, `../apps/web/src/locales/${language}/legal.json`),
          'utf8',
        ),
      ) as { privacy: { sections: { title: string; paragraphs: string[] }[] } };
      const credentials = sections.privacy.sections.find((section) =>
        section.paragraphs.some((paragraph) => paragraph.includes('AES-256-GCM')),
      );
      expect(credentials).toBeDefined();
      await page.getByRole('heading', { name: credentials?.title }).waitFor();
      await page.getByText(/AES-256-GCM/).waitFor();
    } finally {
      await context.close();
    }
  });

  it('finds the way to support without an account, on the FAQ and in the footer', async () => {
    const { context, page } = await firstVisit(language, width);
    try {
      await page.goto(`${prefix[language]}/asked-questions`);
      // The embedded demo is given no support address: no made-up one is shown (issue 39), the
      // pages point to the contact form instead.
      const line = page.getByText(text(language, 'common', 'footer.supportForm.before'));
      expect(await line.count()).toBe(2);
      expect(await page.locator('a[href^="mailto:"][href$=".local"]').count()).toBe(0);
      const form = text(language, 'common', 'footer.supportForm.link');
      await page.getByRole('article').getByRole('link', { name: form }).waitFor();
      await page.getByRole('contentinfo').getByRole('link', { name: form }).first().click();
      // Contact itself still asks for a login (spec §4).
      await page.waitForURL((url) => url.pathname.endsWith('/login'));
    } finally {
      await context.close();
    }
  });

  it('reads the dashboard: closed rows say how they ended, results are named by sign', async () => {
    const { context, page } = await firstVisit(language, width);
    try {
      await demoIn(page, language, '/dashboard');
      await page
        .getByRole('heading', { level: 1, name: text(language, 'dashboard', 'title') })
        .waitFor();
      await page
        .getByRole('term')
        .filter({ hasText: new RegExp(`^${text(language, 'dashboard', 'account.earnings')}$`) })
        .waitFor();
      expect(await page.getByText(/Ganancias|Ganhos/).count()).toBe(0);

      const phone = width < 900;
      if (phone) {
        // The open operations come first; closed ones and the curve are one tap away.
        const tabs = page.getByRole('tablist', {
          name: text(language, 'dashboard', 'views.label'),
        });
        await tabs.waitFor();
        const tabBox = await tabs.boundingBox();
        expect(tabBox?.y ?? Infinity).toBeLessThan(2 * 800);
      }

      // The spread, explained once where trades are open.
      const openRow = page.locator(
        'ul[aria-labelledby="open-operations-title"] [data-operation-id]',
      );
      await openRow.first().waitFor({ timeout: 90_000 });
      const explainer = page.getByText(text(language, 'dashboard', 'open.spreadTitle'));
      expect(await explainer.count()).toBe(1);
      await explainer.click();
      await page.getByText(text(language, 'dashboard', 'open.spreadNote')).waitFor();
      // Capital in the account's currency, lots as a detail.
      expect(await openRow.first().innerText()).toMatch(/US\$|USD/);

      if (phone) {
        await page.getByRole('tab', { name: text(language, 'dashboard', 'views.closed') }).click();
      }
      const closedRow = page
        .getByRole('region', { name: text(language, 'dashboard', 'history.list') })
        .locator('[data-operation-id]');
      await closedRow.first().waitFor({ timeout: 90_000 });
      const row = await closedRow.first().innerText();
      const lasted = text(language, 'dashboard', 'operation.lasted').replace('{{duration}}', '');
      expect(row).toContain(lasted.trim());
      expect(row).toContain('→');
      expect(row).toContain(text(language, 'dashboard', 'operation.closeTime'));
      // The phone card is compact: four of them or more fit on a screen.
      const card = await closedRow.first().boundingBox();
      expect(card?.height ?? Infinity).toBeLessThan(phone ? 800 / 4 : 80);
      expect(card?.width ?? Infinity).toBeLessThanOrEqual(width);

      if (phone) {
        await page.getByRole('tab', { name: text(language, 'dashboard', 'views.chart') }).click();
        await page.locator('canvas').first().waitFor();
      }
    } finally {
      await context.close();
    }
  }, 240_000);

  it('reads the profile: access the demo has, a switch named by what it does, toasts in the language', async () => {
    const { context, page } = await firstVisit(language, width);
    try {
      await demoIn(page, language, '/profile-config');
      await page.getByText(text(language, 'billing', 'section.granted')).waitFor();
      expect(await page.getByText(text(language, 'billing', 'section.none')).count()).toBe(0);
      const robot = page.getByRole('switch', {
        name: text(language, 'robot-settings', 'robot.switch'),
      });
      await robot.waitFor();
      const before = await robot.getAttribute('aria-checked');
      // The toasts' region is named in the reader's language, not Radix's "Notifications"
      // ("Avisos (F8)"; the e-mail notices' card, "Avisos de tu cuenta", is another region).
      const region = page.getByRole('region', { name: /^Avisos \(/ });
      expect(await region.count()).toBe(1);
      await robot.click();
      await page
        .getByText(text(language, 'robot-settings', 'saved'))
        .first()
        .waitFor();
      expect(await page.getByText(/Notification/).count()).toBe(0);
      expect(await robot.getAttribute('aria-checked')).not.toBe(before);
      // Put it back: the demo keeps trading.
      await robot.click();
      await page.waitForFunction(
        (wanted) =>
          document.querySelector('[role="switch"]')?.getAttribute('aria-checked') === wanted,
        before,
      );
    } finally {
      await context.close();
    }
  }, 120_000);

  it('signed in and paid: the menu leads to the profile and support, and offers no free month', async () => {
    const { context, page } = await firstVisit(language, width);
    try {
      await demoIn(page, language, '/dashboard');
      const nav = page.getByRole('navigation', { name: text(language, 'common', 'nav.main') });
      if (width >= 1216) {
        // The signed-in header stays on one row: the brand and every link share one line.
        expect(await headerRowSpread(page)).toBeLessThan(12);
      }
      if (width < 1216) {
        await page.getByRole('button', { name: text(language, 'common', 'nav.menu') }).click();
      }
      await nav.getByRole('link', { name: text(language, 'common', 'nav.profile') }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/profile-config'));
      if (width < 1216) {
        await page.getByRole('button', { name: text(language, 'common', 'nav.menu') }).click();
      }
      await nav.getByRole('link', { name: text(language, 'common', 'nav.support') }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/contact'));
      expect(
        await nav.getByRole('link', { name: text(language, 'common', 'nav.freeMonth') }).count(),
      ).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
