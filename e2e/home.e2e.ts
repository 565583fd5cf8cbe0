import { describe, expect, it } from 'vitest';
import { catalogueText } from './support/catalogue';
import { appStarted, usePage } from './support/page';

describe('home page', () => {
  const state = usePage();

  it('renders in Spanish, switches to Portuguese, and keeps the choice', async () => {
    const { page } = state;
    await page.goto('/');
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await heading.textContent()).toBe(
      'Un robot que invierte por ti, con reglas que puedes leer',
    );
    expect(await page.locator('html').getAttribute('lang')).toBe('es');

    // The prerendered switch answers once the app has hydrated the page.
    await appStarted(page);
    await page.getByRole('button', { name: /PT/ }).click();
    await page
      .getByRole('heading', { name: 'Um robô que investe por você, com regras que você pode ler' })
      .waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('pt');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('pt');

    await page.reload();
    await page
      .getByRole('heading', { name: 'Um robô que investe por você, com regras que você pode ler' })
      .waitFor();
  });

  it.each([
    { width: 360, height: 740 },
    { width: 1280, height: 800 },
  ])(
    'at $width px shows how the robot decides, the plans, and the dashboard as a labelled example',
    async (viewport) => {
      const { page } = state;
      await page.setViewportSize(viewport);
      // What the browser takes as the largest paint, as it happens.
      await page.addInitScript(() => {
        const seen: string[] = [];
        Object.assign(window, { largestPaints: seen });
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            seen.push((entry as PerformanceEntry & { element?: Element }).element?.tagName ?? '');
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      await page.goto('/');
      await page
        .getByRole('heading', { level: 2, name: catalogueText('es', 'home', 'decides.title') })
        .waitFor();
      const steps = page.getByRole('region', {
        name: catalogueText('es', 'home', 'decides.title'),
      });
      expect(await steps.getByRole('listitem').count()).toBe(5);
      await steps.getByText(catalogueText('es', 'home', 'decides.honest')).waitFor();
      await page.getByRole('heading', { level: 3, name: 'Plan mensual' }).waitFor();
      await page.getByRole('link', { name: 'Empezar con el Plan anual' }).waitFor();

      const picture = page.getByRole('img', { name: catalogueText('es', 'home', 'product.alt') });
      // Below the fold and lazy: not loaded with the page's first paint.
      const box = await picture.boundingBox();
      expect(box?.y ?? 0).toBeGreaterThan(viewport.height);
      // Scrolling ends the page's largest paint for a reader: until then it must be text.
      await appStarted(page);
      const paints = await page.evaluate(
        () => (window as unknown as { largestPaints: string[] }).largestPaints,
      );
      expect(paints.length).toBeGreaterThan(0);
      expect(paints).not.toContain('IMG');
      await page.getByText(catalogueText('es', 'home', 'product.caption')).scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (alt) => {
          const image = Array.from(document.images).find((candidate) => candidate.alt === alt);
          return image?.complete === true && image.naturalWidth > 0;
        },
        catalogueText('es', 'home', 'product.alt'),
      );
      const source = await picture.evaluate((image: HTMLImageElement) => image.currentSrc);
      expect(source).toContain(viewport.width < 640 ? 'dashboard-' : 'dashboard-1280.es.webp');
      expect(source).toMatch(/\.es\.webp$/);
    },
  );

  it('asks the server for the country through the geo store', async () => {
    const { page } = state;
    const answer = page.waitForResponse((response) =>
      response.url().endsWith('/core-api/public/api/v1/country-code'),
    );
    await page.goto('/');
    const response = await answer;
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ data: 'AR' });
    // AR may register: the call to action is there.
    await page.getByRole('link', { name: 'Crear mi cuenta' }).waitFor();
  });

  it('shows the not-found text on an unknown path', async () => {
    const { page } = state;
    await page.goto('/no-such-page');
    await page
      .getByRole('heading', { name: 'Lo sentimos, la página que buscas no existe' })
      .waitFor();
  });
});
