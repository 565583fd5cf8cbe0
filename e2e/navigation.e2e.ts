import { describe, expect, it } from 'vitest';
import { appStarted, usePage } from './support/page';

// spec §2 Navigation behaviour.
describe('navigation', () => {
  const state = usePage({ viewport: { width: 360, height: 740 } });

  it('starts a new page at the top and restores the position on back', async () => {
    const { page } = state;
    await page.goto('/terms-and-conditions');
    await appStarted(page);
    await page.evaluate(() => {
      window.scrollTo(0, 1500);
    });
    await page.waitForFunction(() => window.scrollY >= 1400, undefined, { timeout: 10_000 });
    // Let the position be saved (it is saved on the next animation frame).
    await page.waitForTimeout(100);

    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: 'Política de privacidad' })
      .click();
    await page.waitForURL('**/privacy-policy');
    // The address changes before React commits the new page: wait for the new page's own
    // heading (the old page's h1 is still there for a moment, scrolled to its footer).
    await page.getByRole('heading', { level: 1, name: 'Política de privacidad' }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.goBack();
    await page.waitForURL('**/terms-and-conditions');
    await page.waitForFunction(() => window.scrollY >= 1400, undefined, { timeout: 10_000 });
  });

  it('scrolls to a hash anchor', async () => {
    const { page } = state;
    await page.goto('/#risk-title');
    const heading = page.locator('#risk-title');
    await heading.waitFor();
    await page.waitForFunction(() => {
      const top = document.getElementById('risk-title')?.getBoundingClientRect().top ?? -1;
      return window.scrollY > 0 && top >= 0 && top < window.innerHeight;
    });
  });

  it('shows the full-page loader while a navigation runs, for 5 s at most', async () => {
    const { page } = state;
    await page.goto('/');
    await appStarted(page);
    // Every chunk not loaded yet now takes 10 s: the next navigation outlasts the loader's cap,
    // so an uncapped loader would stay at least 8 s after it is first seen.
    await page.route('**/assets/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      await route.continue();
    });
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: 'Términos y condiciones' })
      .click();
    const loader = page
      .getByRole('status')
      .filter({ has: page.getByRole('img', { name: 'Cargando…' }) });
    await loader.waitFor({ state: 'visible', timeout: 2000 });
    const shownAt = Date.now();
    await loader.waitFor({ state: 'hidden', timeout: 9000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(4000);
    expect(shownFor).toBeLessThan(8000);
    await page.unroute('**/assets/**');
    // The navigation itself still completes.
    await page.waitForURL('**/terms-and-conditions', { timeout: 15_000 });
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 15_000 });
  });
});
