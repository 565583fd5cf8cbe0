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
 * "Stop everything" on the dashboard (issue 23; decision 063): one tap plus a confirmation
 * stops the robot and closes every open operation, at 360 px and 1280 px, in es and pt.
 */
const copy = {
  es: {
    button: 'Detener todo y cerrar las operaciones',
    confirmText: 'No se puede deshacer',
    confirm: 'Sí, detener y cerrar todo',
    cancel: 'Cancelar',
    done: /^Robot detenido\. Se cerr/,
    outcome: /Robot detenido\. Se cerr|No pudimos detener el robot/,
  },
  pt: {
    button: 'Parar tudo e fechar as operações',
    confirmText: 'Não é possível desfazer',
    confirm: 'Sim, parar e fechar tudo',
    cancel: 'Cancelar',
    done: /^Robô parado\./,
    outcome: /Robô parado\.|Não conseguimos parar o robô/,
  },
} as const;

describe('the dashboard’s stop-everything button', () => {
  const state = useLiveAccountPage();

  it('asks first, at 360 px and 1280 px, and Cancel changes nothing (es)', async () => {
    const { page } = state;
    const text = copy.es;
    await logInDemo(page);
    const button = page.getByRole('button', { name: text.button });
    await button.waitFor();
    await screenshotAt(page, 'dashboard-stop-everything', 360);
    await screenshotAt(page, 'dashboard-stop-everything', 1280);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(text.confirmText).waitFor();
    await screenshotAt(page, 'dashboard-stop-everything-confirm', 360, { fullPage: false });
    await dialog.getByRole('button', { name: text.cancel }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await tradingData(page)).robot.bot_on).toBe(true);
  }, 90_000);

  it('once confirmed, stops the robot and closes every open operation (pt, 360 px)', async () => {
    const { page } = state;
    const text = copy.pt;
    await logInDemo(page);
    await until(
      async () => (await tradingData(page)).trades.length > 0,
      'an open operation',
      90_000,
    );
    await page.setViewportSize({ width: 360, height: 800 });
    // Portuguese has its own addresses (decision 053).
    await page.goto('/pt/dashboard');
    await page.getByRole('button', { name: text.button }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(text.confirmText).waitFor();
    await dialog.getByRole('button', { name: text.confirm }).click();
    const outcome = page.getByText(text.outcome).first();
    await outcome.waitFor();
    expect(await outcome.textContent()).toMatch(text.done);
    const after = await tradingData(page);
    expect(after.trades).toEqual([]);
    expect(after.robot.bot_on).toBe(false);
    expect(after.closed.some((row) => row.closeReason === 'kill')).toBe(true);
  }, 150_000);
});
