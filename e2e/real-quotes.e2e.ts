import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RealQuotesReport, TrackRecord } from '@tradebot/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { catalogueText } from './support/catalogue';
import { screenshotAt, until } from './support/live-account';
import { startServer, type RunningServer } from './support/server';

/** The shared OANDA sample beside the repository (test data only: decisions 125 and 142). */
const oanda = path.resolve(import.meta.dirname, '../../shared/market-data/oanda-2014-05');

async function realQuotes(server: RunningServer): Promise<RealQuotesReport> {
  const response = await fetch(`${server.url}/core-api/public/api/v1/track-record?limit=1`);
  if (!response.ok) throw new Error(`track-record answered ${String(response.status)}`);
  return ((await response.json()) as { data: TrackRecord }).data.realQuotes;
}

const text = (language: 'es' | 'pt', key: string) => catalogueText(language, 'track-record', key);

describe('the robot on real recorded quotes beside the simulated market (issue 36, decision 142)', () => {
  let server: RunningServer;
  let browser: Browser;
  let folder: string;

  beforeAll(async () => {
    // One day of EURUSD, copied for the test's life: seconds of CPU, not the whole sample's.
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'real-quotes-e2e-'));
    await fs.mkdir(path.join(folder, 'eurusd'));
    await fs.copyFile(
      path.join(oanda, 'eurusd', '20140505_quote.zip'),
      path.join(folder, 'eurusd', '20140505_quote.zip'),
    );
    server = await startServer({
      RECORDED_QUOTES_DIR: folder,
      RECORDED_QUOTES_SOURCE: 'OANDA',
      RECORDED_QUOTES_NICE: '0',
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await server.stop();
    await fs.rm(folder, { recursive: true, force: true });
  });

  async function open(language: 'es' | 'pt', address: string, width: number): Promise<Page> {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width, height: 800 },
    });
    const page = await context.newPage();
    await page.goto(language === 'es' ? address : `/pt${address === '/' ? '' : address}`);
    return page;
  }

  it('/track-record and home show both figures and the disclosure, in es and pt, at 360 and 1280 px', async () => {
    const report = await until(
      async () => {
        const current = await realQuotes(server);
        return current.status === 'ready' ? current : undefined;
      },
      'the figures on recorded quotes',
      240_000,
    );
    expect(report).toMatchObject({ source: 'OANDA', instruments: ['EURUSD'], cadence: 'quote' });

    for (const language of ['es', 'pt'] as const) {
      for (const address of ['/track-record', '/']) {
        for (const width of [360, 1280]) {
          const page = await open(language, address, width);
          const simulated = page.locator('[data-market="simulated"]');
          const real = page.locator('[data-market="real"][data-status="ready"]');
          await real.waitFor();
          await simulated
            .getByRole('heading', { name: text(language, 'markets.simulated.title') })
            .waitFor();
          expect(await simulated.innerText()).toContain(
            text(language, 'markets.simulated.disclosure'),
          );
          const realText = await real.innerText();
          expect(realText).toContain(text(language, 'markets.real.title'));
          expect(realText).toContain('OANDA: EURUSD');
          expect(realText).toContain(text(language, 'markets.figures.noEdge'));
          expect(realText).toContain(text(language, 'markets.figures.skill'));
          // The operations the server counted, as the page shows them.
          const operations = real
            .getByRole('term')
            .filter({ hasText: text(language, 'markets.figures.operations') })
            .locator('xpath=following-sibling::dd[1]');
          expect(await operations.innerText()).toBe(String(report.operations));
          // Nothing scrolls sideways.
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow, `${language} ${address} at ${String(width)} px`).toBeLessThanOrEqual(0);
          await screenshotAt(
            page,
            `real-quotes${address === '/' ? '.home' : '.track-record'}.${language}.${String(width)}`,
            width,
          );
          await page.context().close();
        }
      }
    }
  }, 600_000);
});
