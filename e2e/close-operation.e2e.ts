import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import {
  logInDemo,
  screenshotAt,
  tradingData,
  until,
  useLiveAccountPage,
} from './support/live-account';

/**
 * "Cerrar" / "Fechar" on one open operation (issue 39; decision 152): asks first, closes that
 * operation at the market, and it moves to the closed ones with the reason "closed by you"; the
 * robot and the other operations stay as they were. Keyboard only, es and pt, 360 and 1280 px.
 */
const copy = {
  es: {
    close: (asset: string) => `Cerrar la operación de ${asset}`,
    confirmText: 'Se cierra ahora al precio del mercado',
    confirm: 'Sí, cerrarla',
    cancel: 'No, dejarla abierta',
    done: /^Cerraste .+: resultado /,
  },
  pt: {
    close: (asset: string) => `Fechar a operação de ${asset}`,
    confirmText: 'Ela é fechada agora ao preço de mercado',
    confirm: 'Sim, fechar',
    cancel: 'Não, deixar aberta',
    done: /^Você fechou .+: resultado /,
  },
} as const;

/** The newest open operation, once the robot opened one. */
async function anOpenOperation(page: Page) {
  await until(async () => (await tradingData(page)).trades.length > 0, 'an open operation', 90_000);
  const [row] = (await tradingData(page)).trades;
  if (!row) throw new Error('no open operation');
  return row;
}

describe('closing one operation from the dashboard', () => {
  const state = useLiveAccountPage();

  it('asks first and Cancel changes nothing; confirmed, that one closes by the user (es, keyboard)', async () => {
    const { page } = state;
    const text = copy.es;
    await logInDemo(page);
    const row = await anOpenOperation(page);
    await page.reload();
    const item = page.locator('li', { has: page.locator(`[data-operation-id="${row.id}"]`) });
    const button = item.getByRole('button', { name: text.close(row.OutputName) });
    await button.waitFor();
    await screenshotAt(page, 'dashboard-close-one', 360);
    await screenshotAt(page, 'dashboard-close-one', 1280);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(text.confirmText).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshotAt(page, 'dashboard-close-one-confirm', 360, { fullPage: false });
    // Focus starts on "No": Enter keeps it open.
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect((await tradingData(page)).trades.some((trade) => trade.id === row.id)).toBe(true);

    await button.focus();
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: text.confirm }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const outcome = page.getByTestId('close-outcome');
    await outcome.getByText(text.done).waitFor();
    // The pressed button went with its row: the outcome holds the focus.
    expect(await outcome.evaluate((box) => box === document.activeElement)).toBe(true);
    const after = await tradingData(page);
    expect(after.trades.some((trade) => trade.id === row.id)).toBe(false);
    expect(after.closed.find((trade) => trade.id === row.id)?.closeReason).toBe('manual');
    expect(after.robot.bot_on).toBe(true);
    await screenshotAt(page, 'dashboard-close-one-done', 1280, { fullPage: false });

    // Its detail says why it closed.
    await page.locator(`[data-operation-id="${row.id}"]`).first().click();
    await page.getByRole('dialog').getByText('La cerraste tú').waitFor();
  }, 180_000);

  it('closes one at 360 px in Portuguese', async () => {
    const { page } = state;
    const text = copy.pt;
    await logInDemo(page);
    const row = await anOpenOperation(page);
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto('/pt/dashboard');
    const item = page.locator('li', { has: page.locator(`[data-operation-id="${row.id}"]`) });
    await item.getByRole('button', { name: text.close(row.OutputName) }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(text.confirmText).waitFor();
    await dialog.getByRole('button', { name: text.confirm }).click();
    await page.getByTestId('close-outcome').getByText(text.done).waitFor();
    const after = await tradingData(page);
    expect(after.closed.find((trade) => trade.id === row.id)?.closeReason).toBe('manual');
  }, 180_000);
});
