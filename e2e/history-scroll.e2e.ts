import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { registerThroughApi } from './support/registration';
import { startServer } from './support/server';

/**
 * issue 9: the history stays usable at 10,000 closed operations. The list is virtualized, so
 * the page holds a bounded window of rows however long the history, and scrolling fetches the
 * further pages until the oldest operation shows.
 */
const root = path.resolve(import.meta.dirname, '..');
const seedScript = path.join(root, 'apps/server/scripts/bench-live-seed.ts');
const historySize = 10_000;
const email = 'historia@tradebot.app';
const password = 'Clave1234';
// The robot stays out of the way: no warm-up, and this user's robot is off.
const quietRobot = { ROBOT_WARM_UP_MS: '0' };

describe(`a history of ${String(historySize)} closed operations`, () => {
  it('keeps a bounded window of rows in the page and scrolls to the oldest', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-history-'));
    try {
      const first = await startServer(quietRobot, { dataDir });
      await registerThroughApi(first.url, dataDir, {
        name: 'Ana',
        last_name: 'López',
        email,
        password,
        confirm_password: password,
        accept_terms: true,
      });
      expect(await first.stop()).toBe(0);

      // PGlite takes one process at a time: the history is written while no server runs.
      const seeded = spawnSync(
        process.execPath,
        ['--import', 'tsx', seedScript, 'trader', email, '0', String(historySize)],
        {
          cwd: root,
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
          encoding: 'utf8',
        },
      );
      expect(seeded.status, seeded.stderr).toBe(0);

      const server = await startServer(quietRobot, { dataDir });
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage({
          baseURL: server.url,
          viewport: { width: 1280, height: 900 },
        });
        await page.goto('/login');
        await page.getByLabel('Correo electrónico').fill(email);
        await page.getByLabel('Contraseña', { exact: true }).fill(password);
        await page.getByRole('button', { name: 'Entrar' }).click();
        await page.waitForURL('**/dashboard');
        const list = page.getByRole('region', { name: 'Operaciones cerradas' });
        await list.locator('[data-index]').first().waitFor();

        let mostRendered = 0;
        let lastShown = -1;
        for (let step = 0; step < 600 && lastShown < historySize - 1; step++) {
          const window = await list.evaluate((element) => {
            element.scrollTop = element.scrollHeight;
            const indexes = Array.from(element.querySelectorAll('[data-index]'), (row) =>
              Number(row.getAttribute('data-index')),
            );
            return { rendered: indexes.length, last: Math.max(...indexes) };
          });
          mostRendered = Math.max(mostRendered, window.rendered);
          lastShown = window.last;
          await page.waitForTimeout(50);
        }
        expect(lastShown).toBe(historySize - 1);
        // A window of rows, not ten thousand of them.
        expect(mostRendered).toBeGreaterThan(5);
        expect(mostRendered).toBeLessThan(100);

        // The jumps above passed over most rows unmeasured; the list's length is still right
        // (within the odd wrapped line), so measuring rows as they scroll in moves nothing.
        const lengths = await list.evaluate((element) => ({
          list: element.scrollHeight,
          // The shortest row in view: a row whose line did not wrap.
          row: Math.min(
            ...Array.from(
              element.querySelectorAll('[data-index]'),
              (row) => row.getBoundingClientRect().height,
            ),
          ),
        }));
        expect(lengths.row).toBeGreaterThan(0);
        expect(lengths.list / historySize / lengths.row).toBeGreaterThan(0.98);
        expect(lengths.list / historySize / lengths.row).toBeLessThan(1.05);
      } finally {
        await browser.close();
        await server.stop();
      }
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
