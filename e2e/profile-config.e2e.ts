import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import {
  logInDemo,
  robotOnInEveryCategory,
  screenshotAt,
  tradingData,
  until,
  useLiveAccountPage,
} from './support/live-account';

const saved = 'Configuración actualizada con éxito';

async function openProfileConfig(page: Page) {
  await page.goto('/profile-config');
  await page.getByRole('heading', { level: 1, name: 'Perfil y preferencias del robot' }).waitFor();
}

/**
 * Makes a change and waits for its save to answer and for the success message; the control
 * then shows the new value.
 */
async function saveChange(page: Page, endpoint: string, act: () => Promise<void>) {
  const answered = page.waitForResponse(
    (response) =>
      response.url().endsWith(`/api/v1/${endpoint}`) && response.request().method() === 'POST',
  );
  await act();
  expect((await answered).status()).toBe(200);
  await page.getByRole('status').filter({ hasText: saved }).last().waitFor();
}

/** Flips a switch, waits for its save, and checks it shows the new value. */
async function flip(page: Page, name: string, endpoint = 'settings') {
  const control = page.getByRole('switch', { name });
  const was = await control.getAttribute('aria-checked');
  await saveChange(page, endpoint, () => control.click());
  expect(await control.getAttribute('aria-checked')).not.toBe(was);
}

describe('profile configuration (issue 9, spec §2, §4)', () => {
  const state = useLiveAccountPage();

  it('saves each change at once, and the choices persist across a reload', async () => {
    const { page } = state;
    await logInDemo(page);
    await openProfileConfig(page);
    const all = page.getByRole('switch', { name: 'Todas las categorías' });
    expect(await all.getAttribute('aria-checked')).toBe('true');
    // With every market on, each category waits, switched on.
    expect(await page.getByRole('switch', { name: 'Criptomonedas' }).isDisabled()).toBe(true);

    await flip(page, 'Todas las categorías');
    await flip(page, 'Criptomonedas');
    await saveChange(page, 'settings', () => page.getByRole('radio', { name: /^Nivel 3/ }).click());
    // Issue 39: arrow keys move and select, and a key pressed while the first save is still on
    // its way is saved after it (it was dropped: the screen fell back to level 4). Each key is
    // held 60 ms as a hand does: Radix moves the focus in a timeout and selects only while an
    // arrow key is down, so a zero-length press moves the focus without selecting.
    await page.route('**/api/v1/settings', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    const saves: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/v1/settings') && response.request().method() === 'POST') {
        saves.push(response.status());
      }
    });
    await page.getByRole('radio', { name: /^Nivel 3/ }).focus();
    await page.keyboard.press('ArrowDown', { delay: 60 });
    await page.keyboard.press('ArrowDown', { delay: 60 });
    await page.getByRole('radio', { name: /^Nivel 5/, checked: true }).waitFor({ timeout: 5000 });
    await until(() => Promise.resolve(saves.length >= 2), 'two saves');
    expect(saves).toEqual([200, 200]);
    await page.unroute('**/api/v1/settings');
    const newsletter = page.getByRole('switch', { name: 'Boletín por correo' });
    const newsletterBefore = await newsletter.getAttribute('aria-checked');
    await flip(page, 'Boletín por correo', 'newsletter');

    await page.reload();
    await page
      .getByRole('heading', { level: 1, name: 'Perfil y preferencias del robot' })
      .waitFor();
    expect(
      await page.getByRole('switch', { name: 'Todas las categorías' }).getAttribute('aria-checked'),
    ).toBe('false');
    expect(
      await page.getByRole('switch', { name: 'Criptomonedas' }).getAttribute('aria-checked'),
    ).toBe('false');
    expect(
      await page.getByRole('switch', { name: 'Divisas (Forex)' }).getAttribute('aria-checked'),
    ).toBe('true');
    expect(await page.getByRole('radio', { name: /^Nivel 5/ }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(await newsletter.getAttribute('aria-checked')).not.toBe(newsletterBefore);
  }, 60_000);

  it('fits 360 px and 1280 px (screenshots in e2e/artifacts/)', async () => {
    const { page } = state;
    await logInDemo(page);
    await openProfileConfig(page);
    await screenshotAt(page, 'profile-config', 360);
    await screenshotAt(page, 'profile-config', 1280);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Detener el robot y cerrar todo' }).click();
    await page.getByRole('alertdialog').waitFor();
    await screenshotAt(page, 'profile-config-kill-confirm', 360, { fullPage: false });
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
  }, 60_000);

  it('the kill switch, once confirmed, stops the robot and closes every open operation', async () => {
    const { page } = state;
    await logInDemo(page);
    await robotOnInEveryCategory(page);
    await until(
      async () => (await tradingData(page)).trades.length > 0,
      'an open operation',
      90_000,
    );
    await openProfileConfig(page);
    await page.getByRole('button', { name: 'Detener el robot y cerrar todo' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('No se puede deshacer').waitFor();
    await confirm.getByRole('button', { name: 'Sí, detener y cerrar todo' }).click();
    const outcome = page.getByText(/Robot detenido\. Se cerr|No pudimos detener el robot/).first();
    await outcome.waitFor();
    expect(await outcome.textContent()).toMatch(/^Robot detenido\. Se cerr/);
    expect(
      await page.getByRole('switch', { name: 'Encender el robot' }).getAttribute('aria-checked'),
    ).toBe('false');

    const after = await tradingData(page);
    expect(after.trades).toEqual([]);
    expect(after.robot.bot_on).toBe(false);
    expect(after.closed.some((row) => row.closeReason === 'kill')).toBe(true);
    await page.reload();
    await page.getByRole('switch', { name: 'Encender el robot' }).waitFor();
    expect(
      await page.getByRole('switch', { name: 'Encender el robot' }).getAttribute('aria-checked'),
    ).toBe('false');
  }, 150_000);

  it('switching the robot off stops new operations', async () => {
    const { page } = state;
    await logInDemo(page);
    await robotOnInEveryCategory(page);
    await openProfileConfig(page);
    expect(
      await page.getByRole('switch', { name: 'Encender el robot' }).getAttribute('aria-checked'),
    ).toBe('true');
    await until(
      async () => (await tradingData(page)).trades.length > 0,
      'the robot to trade',
      90_000,
    );

    await flip(page, 'Encender el robot');
    const stopped = await tradingData(page);
    expect(stopped.robot).toMatchObject({ bot_on: false, idleReason: 'ROBOT_OFF' });
    const openWhenStopped = new Set(stopped.trades.map((row) => row.id));
    // Watch the market move (open operations reach TP or SL) and check nothing new opens.
    const closedBefore = stopped.closedPage.total;
    await until(
      async () => (await tradingData(page)).closedPage.total > closedBefore,
      'the market to close an operation',
      90_000,
    ).catch(() => undefined);
    const later = await tradingData(page);
    expect(later.trades.filter((row) => !openWhenStopped.has(row.id))).toEqual([]);
  }, 240_000);
});
