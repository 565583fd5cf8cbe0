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
    // The login carries the page asked for, to return there afterwards (issue 22).
    await page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('redirect') === path,
    );
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

describe('after login, back to the page that sent the user there (issue 22)', () => {
  const state = usePage({ viewport: { width: 360, height: 740 } });
  const copy = {
    es: {
      accept: 'Aceptar',
      email: 'Correo electrónico',
      password: 'Contraseña',
      submit: 'Entrar',
      contact: 'Atención al cliente',
    },
    pt: {
      accept: 'OK',
      email: 'E-mail',
      password: 'Senha',
      submit: 'Entrar',
      contact: 'Atendimento ao cliente',
    },
  } as const;

  it.each(['es', 'pt'] as const)(
    'in %s: Contact, the login it sends to, then Contact again',
    async (language) => {
      const { page, context } = state;
      const text = copy[language];
      await context.addInitScript((stored) => {
        if (!localStorage.getItem('language')) localStorage.setItem('language', stored);
      }, language);
      await page.goto('/contact');
      await page.waitForURL(
        (url) => url.pathname.endsWith('/login') && url.searchParams.get('redirect') === '/contact',
      );
      await page.getByRole('alertdialog').getByRole('button', { name: text.accept }).click();
      await page.getByLabel(text.email).fill('demo@tradebot.app');
      await page.getByLabel(text.password, { exact: true }).fill('Demo1234');
      await page.getByRole('button', { name: text.submit }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/contact'));
      await page.getByRole('heading', { level: 1, name: text.contact }).waitFor();
    },
  );

  it('a stored session the server refuses: the login says it ended, not a silent sign-out', async () => {
    const { page } = state;
    await page.goto('/terms-and-conditions');
    await page.evaluate(() => {
      localStorage.setItem('token', 'a-session-that-ended');
    });
    await page.goto('/contact');
    await page.waitForURL((url) => url.pathname === '/login');
    await page
      .getByRole('alertdialog')
      .getByText('Tu sesión terminó. Inicia sesión de nuevo para continuar.')
      .waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('ignores a return address outside the site: the dashboard, as before', async () => {
    const { page } = state;
    await page.goto('/login?redirect=https%3A%2F%2Fevil.example%2F');
    await page.getByLabel('Correo electrónico').fill('demo@tradebot.app');
    await page.getByLabel('Contraseña', { exact: true }).fill('Demo1234');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });
});
