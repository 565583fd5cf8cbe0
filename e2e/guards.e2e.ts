import { describe, expect, it } from 'vitest';
import { usePage } from './support/page';

const protectedPaths = [
  '/contact',
  '/payment',
  '/link-account',
  '/dashboard',
  '/profile-config',
  '/trading-platform-login',
];

describe('guards while logged out (spec §4, rule 2)', () => {
  const state = usePage();

  it.each(protectedPaths)('%s lands on /login with the message', async (path) => {
    const { page } = state;
    await page.goto(path);
    await page.waitForURL('**/login');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Debes iniciar sesión para acceder a esta página');
    // A modal hides the page behind it from assistive technology until it closes.
    await dialog.getByRole('button', { name: 'Aceptar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
  });

  it('the overlay closes with Escape and returns focus, and with either button', async () => {
    const { page } = state;
    await page.goto('/dashboard');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Aceptar');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => document.activeElement?.closest('[role=alertdialog]') !== null),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.goto('/payment');
    await dialog.waitFor();
    const close = page.getByRole('button', { name: 'Cerrar mensaje' });
    const box = await close.boundingBox();
    expect(box?.width).toBe(50);
    await close.click();
    await dialog.waitFor({ state: 'detached' });
  });
});
