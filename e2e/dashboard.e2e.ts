import fs from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
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
 * The operations whose asset name is cut ("T…", "Ap…") in the lists on screen: a name is
 * never cut, at any width (issue 39 point 9).
 */
async function cutNames(page: Page): Promise<string[]> {
  const names = page.locator('[data-operation-id] [data-asset-name]');
  await names.first().waitFor();
  return names.evaluateAll((elements) =>
    elements
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => element.textContent),
  );
}

async function operationIds(list: Locator): Promise<string[]> {
  return list.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-operation-id') ?? ''));
}

describe('the dashboard (issue 9, spec §2)', () => {
  const state = useLiveAccountPage();

  it('shows the demo account; an operation opens and closes into the history without a reload', async () => {
    const { page } = state;
    await logInDemo(page);
    await page.getByRole('heading', { level: 1, name: 'Tu cartera' }).waitFor();
    for (const figure of ['Saldo', 'Capital disponible', 'Patrimonio', 'Resultado']) {
      await page
        .getByRole('term')
        .filter({ hasText: new RegExp(`^${figure}$`) })
        .waitFor();
    }
    await page.getByRole('meter').waitFor();
    await page.getByTestId('robot-state').getByText('Encendido').waitFor();
    // What it does in each category chosen, and when it last looked (issue 39, decision 147).
    const categories = page
      .getByRole('list', { name: 'Qué hace en cada categoría que elegiste' })
      .getByRole('listitem');
    await categories.first().waitFor();
    for (const line of await categories.allTextContents()) {
      expect(line).toMatch(
        /^(Forex|Cripto|Acciones|Índices|Materias primas): (mercado cerrado|aprendiendo|sin ventaja|todavía sin pronóstico|con ventaja|operando)/,
      );
    }
    // Its prices are named for what they are: our simulated market (decision 140).
    expect((await tradingData(page)).prices).toEqual({ kind: 'simulator' });
    await page
      .getByTestId('account-prices')
      .getByText(
        'Precios: mercado simulado por Tradebot (tendencias generadas, no precios reales).',
      )
      .waitFor();
    // A marker that a reload or a navigation would wipe.
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });

    const open = page.locator('ul[aria-labelledby="open-operations-title"] [data-operation-id]');
    const history = page
      .getByRole('region', { name: 'Operaciones cerradas' })
      .locator('[data-operation-id]');
    const before = new Set(await operationIds(open));
    // Every operation seen opening on this page; the first of them to close is followed (some
    // markets may close with an operation still open, so it need not be the first to open).
    const opened = new Set<string>();
    await until(
      async () => {
        for (const id of await operationIds(open)) if (!before.has(id)) opened.add(id);
        return opened.size > 0;
      },
      'an operation to open',
      90_000,
    );
    const closed = await until(
      async () => {
        for (const id of await operationIds(open)) if (!before.has(id)) opened.add(id);
        return (await operationIds(history)).find((id) => opened.has(id));
      },
      'an operation opened here to close',
      180_000,
    );
    const inHistory = history.and(page.locator(`[data-operation-id="${closed}"]`));
    expect(await operationIds(open)).not.toContain(closed);
    expect(
      await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
    ).toBe(true);

    // The detail: targets, the close reason, and the estimate set against break-even.
    await inHistory.click();
    const detail = page.getByRole('dialog');
    await detail.getByText('Objetivo de ganancia (TP)').waitFor();
    await detail.getByText('Límite de pérdida (SL)').waitFor();
    await detail.getByText('Motivo del cierre').waitFor();
    await detail.getByText(/Punto de equilibrio: \d/).waitFor();
    await detail.getByText(/no una promesa/).waitFor();
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
  }, 300_000);

  it('fits 360 px and 1280 px (screenshots in e2e/artifacts/)', async () => {
    const { page } = state;
    await logInDemo(page);
    await page.getByRole('region', { name: 'Operaciones cerradas' }).waitFor({ timeout: 60_000 });
    await page.locator('canvas').first().waitFor();
    await screenshotAt(page, 'dashboard', 360);
    expect(await cutNames(page)).toEqual([]);
    await screenshotAt(page, 'dashboard', 1280);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page
      .getByRole('region', { name: 'Operaciones cerradas' })
      .locator('[data-operation-id]')
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    await screenshotAt(page, 'dashboard-detail', 360, { fullPage: false });
    await screenshotAt(page, 'dashboard-detail', 1280, { fullPage: false });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Portuguese: the screen's words and its money (spec §4 Language).
    await page.getByRole('button', { name: /^PT/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Sua carteira' }).waitFor();
    await page
      .getByRole('term')
      .filter({ hasText: /^Capital disponível$/ })
      .waitFor();
    expect(await page.getByRole('definition').first().textContent()).toMatch(
      /^US\$\s[\d.]+,\d{2}$/,
    );
    await screenshotAt(page, 'dashboard-pt', 1280);
    await screenshotAt(page, 'dashboard-pt', 360);
    expect(await cutNames(page)).toEqual([]);
  }, 120_000);
  it('filters the history by period and exports it as CSV', async () => {
    const { page } = state;
    await logInDemo(page);
    await until(async () => (await tradingData(page)).closedPage.total > 0, 'a closed operation');
    // The kill switch freezes the account, so the lists compared below stay still.
    await page.evaluate(async () => {
      const response = await fetch('/core-api/public/api/v1/robot/kill', {
        method: 'POST',
        headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
      });
      if (!response.ok) throw new Error(`kill answered ${String(response.status)}`);
    });
    await page.reload();
    const periods = page.getByRole('radiogroup', { name: 'Período del historial' });
    await periods.waitFor();

    const shown = async (label: string, period: string) => {
      await periods.getByRole('radio', { name: label }).click();
      expect(await periods.getByRole('radio', { name: label }).getAttribute('aria-checked')).toBe(
        'true',
      );
      const expected = await tradingData(page, `?period=${period}&limit=100`);
      const total = expected.closedPage.total;
      if (total > 0) {
        await page.getByText(new RegExp(`^${String(total)} operaci(ón|ones) cerradas?$`)).waitFor();
        const first = expected.closed[0]?.id ?? '';
        await page
          .getByRole('region', { name: 'Operaciones cerradas' })
          .locator(`[data-operation-id="${first}"]`)
          .waitFor();
      } else {
        await page.getByText('No hay operaciones cerradas en este período.').waitFor();
      }
      return total;
    };
    const lastDay = await shown('Último día', 'day');
    const everything = await shown('Todo', 'all');
    expect(everything).toBeGreaterThanOrEqual(lastDay);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    const file = await download;
    // A spreadsheet in the page's language (decision 154): Spanish headers, `;`, a BOM.
    expect(file.suggestedFilename()).toBe('operaciones-all.csv');
    const csv = await fs.readFile(await file.path(), 'utf8');
    expect(csv.split('\n')[0]).toMatch(/^\uFEFFApertura \([^)]+\);Cierre \([^)]+\);Activo;/);
    expect(csv.trim().split('\n').length).toBe(everything + 1);
  }, 120_000);
});
