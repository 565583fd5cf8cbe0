import { describe, expect, it } from 'vitest';
import { usePage } from './support/page';

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
