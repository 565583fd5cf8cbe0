import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import { catalogueText } from './support/catalogue';
import { appStarted, usePage } from './support/page';
import { publicPages, type PublicPage } from './support/public-pages';

const screenshots = path.resolve(import.meta.dirname, '../test-results/360');

function expectedHeading(page: PublicPage, language: 'es' | 'pt') {
  return page.heading(language);
}

async function horizontalOverflow(page: Page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

describe('public pages at 360 px, in Spanish and in Portuguese', () => {
  const state = usePage({ viewport: { width: 360, height: 740 } });

  it.each(publicPages)('$path renders, fits 360 px, and passes axe', async (entry) => {
    const { page } = state;
    fs.mkdirSync(screenshots, { recursive: true });
    const name = entry.path === '/' ? 'home' : entry.path.slice(1).replaceAll('/', '_');

    await page.goto(entry.path);
    await page
      .getByRole('heading', { level: 1, name: expectedHeading(entry, 'es'), exact: true })
      .waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await page.screenshot({ path: path.join(screenshots, `${name}.es.png`), fullPage: true });
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.evaluate(() => {
      localStorage.setItem('language', 'pt');
    });
    await page.reload();
    await page
      .getByRole('heading', { level: 1, name: expectedHeading(entry, 'pt'), exact: true })
      .waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('pt');
    await page.screenshot({ path: path.join(screenshots, `${name}.pt.png`), fullPage: true });
    expect(await horizontalOverflow(page)).toBe(0);
  });

  it('any other path shows the not-found text, and other promo paths too', async () => {
    const { page } = state;
    for (const unknown of ['/no-such-page', '/promo/robot-bitcoin', '/how-it-works/6']) {
      await page.goto(unknown);
      await page
        .getByRole('heading', { name: 'Lo sentimos, la página que buscas no existe' })
        .waitFor();
    }
  });

  it('the menu button opens the navigation at 360 px, and the language switch applies at once', async () => {
    const { page } = state;
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    // The prerendered menu button does nothing until React has hydrated the page: on a loaded
    // machine a click before that was lost, and the test waited for a menu that never opened.
    await appStarted(page);
    const faqLink = page.getByRole('link', { name: 'Preguntas frecuentes' }).first();
    expect(await page.getByRole('navigation', { name: 'Navegación principal' }).isVisible()).toBe(
      false,
    );
    await page.getByRole('button', { name: 'Menú' }).click();
    await faqLink.click();
    await page.getByRole('heading', { level: 1, name: 'Preguntas frecuentes' }).waitFor();
    await page.getByRole('button', { name: 'Menú' }).click();
    await page.getByRole('button', { name: /PT/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Perguntas frequentes' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('pt');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Perguntas frequentes' }).waitFor();
  });

  it('how it works explains step by step, and goes forward and back from the keyboard', async () => {
    const { page } = state;
    await page.goto('/how-it-works');
    await appStarted(page);
    // Each page explains first; its broker question is optional here (decision 159).
    const next = page.getByRole('button', { name: 'Paso siguiente' });
    await next.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/how-it-works/2');
    await page
      .getByRole('heading', {
        level: 1,
        name: catalogueText('es', 'broker', 'howItWorks.steps.1.title'),
      })
      .waitFor();
    await page
      .getByText(catalogueText('es', 'broker', 'howItWorks.steps.1.paragraphs.1'))
      .waitFor();
    await page.getByRole('link', { name: 'Paso anterior' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/how-it-works');
  });
});
