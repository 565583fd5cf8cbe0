import type { TrackRecord } from '@tradebot/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { catalogueText } from './support/catalogue';
import { fastMarket, screenshotAt, until } from './support/live-account';
import { startServer, type RunningServer } from './support/server';

async function trackRecord(server: RunningServer): Promise<TrackRecord> {
  const response = await fetch(`${server.url}/core-api/public/api/v1/track-record`);
  if (!response.ok) throw new Error(`track-record answered ${String(response.status)}`);
  return ((await response.json()) as { data: TrackRecord }).data;
}

const text = (language: 'es' | 'pt', key: string) => catalogueText(language, 'track-record', key);
const address = (language: 'es' | 'pt') =>
  language === 'es' ? '/track-record' : '/pt/track-record';

describe('the public track record (issue 12, decision 060)', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer(fastMarket);
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  async function open(language: 'es' | 'pt', width: number): Promise<Page> {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width, height: 800 },
    });
    const page = await context.newPage();
    await page.goto(address(language));
    await page.getByRole('heading', { level: 1, name: text(language, 'title') }).waitFor();
    return page;
  }

  it('lists the operations of the robot’s own account with its figures, in es and pt at 360 and 1280 px', async () => {
    const record = await until(
      async () => {
        const current = await trackRecord(server);
        return (current.summary?.closed ?? 0) >= 1 ? current : undefined;
      },
      'the robot’s own account to close an operation',
      300_000,
    );
    expect(record.running).toBe(true);

    for (const language of ['es', 'pt'] as const) {
      for (const width of [360, 1280]) {
        const page = await open(language, width);
        const operations = page.locator('[data-operation-id]');
        await operations.first().waitFor();
        expect(await operations.count()).toBeGreaterThanOrEqual(1);
        // The robot's own figures, apart from the two-markets panel that also names a result.
        const figures = page.getByLabel(text(language, 'figures.label'), { exact: true });
        for (const figure of ['balance', 'profit', 'operations', 'winRate', 'breakEven']) {
          await figures
            .getByRole('term')
            .filter({ hasText: new RegExp(`^${text(language, `figures.${figure}`)}$`) })
            .waitFor();
        }
        await page.getByRole('heading', { name: text(language, 'breakEven.title') }).waitFor();
        await page.getByRole('heading', { name: text(language, 'model.title') }).waitFor();
        await page.getByRole('heading', { name: text(language, 'list.title') }).waitFor();
        // The model against a coin flip: its row is there once an operation hit TP or SL.
        await page.getByRole('rowheader', { name: text(language, 'model.coinFlipRow') }).waitFor();
        // Decision 093: claimed against hit by decile, readable at 360 px as at 1280.
        const deciles = page.getByRole('table', { name: text(language, 'model.deciles.caption') });
        await deciles.waitFor();
        expect(await deciles.getByRole('row').count()).toBeGreaterThanOrEqual(2);
        // The page never scrolls sideways: the table's frame fits (it scrolls inside if need be).
        const frame = page.getByRole('region', { name: text(language, 'model.deciles.caption') });
        const box = await frame.boundingBox();
        expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(width);
        await screenshotAt(page, `track-record.${language}.${String(width)}`, width);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await page.context().close();
      }
    }
  }, 600_000);

  it('is linked from the footer', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/asked-questions');
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: catalogueText('es', 'common', 'footer.trackRecord') })
      .click();
    await page.getByRole('heading', { level: 1, name: text('es', 'title') }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/track-record');
    await context.close();
  });
});

describe('the public track record without a robot here (ROBOT_ENABLED=false)', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ ROBOT_ENABLED: 'false' });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  it('says the robot is not running on this server', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/pt/track-record');
    await page.getByText(text('pt', 'notRunning.title')).waitFor();
    expect(await page.locator('[data-operation-id]').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
