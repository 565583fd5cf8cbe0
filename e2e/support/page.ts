import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { launchBrowser } from './browser';

export interface PageContext {
  baseURL: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/** A browser per file and a fresh context (empty storage) per test. */
export function usePage(options: { viewport?: { width: number; height: number } } = {}) {
  const state = { baseURL: inject('baseURL') } as PageContext;
  beforeAll(async () => {
    state.browser = await launchBrowser();
  });
  afterAll(async () => {
    await state.browser.close();
  });
  beforeEach(async () => {
    state.context = await state.browser.newContext({
      baseURL: state.baseURL,
      viewport: options.viewport ?? { width: 1280, height: 800 },
    });
    state.page = await state.context.newPage();
  });
  afterEach(async () => {
    await state.context.close();
  });
  return state;
}

/**
 * Waits until the app runs on a prerendered page: React has hydrated its first heading. Before
 * that the page shows its text, but links navigate without the router and nothing reacts.
 */
export async function appStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const heading = document.querySelector('h1');
    return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber$'));
  });
}

/**
 * How far apart, in pixels, the vertical middles of the header's visible links and buttons are:
 * under a dozen when brand, links and account share one row, a row's height when it wrapped.
 */
export async function headerRowSpread(page: Page): Promise<number> {
  const middles = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('header a, header button'))
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => {
        const box = element.getBoundingClientRect();
        return (box.top + box.bottom) / 2;
      }),
  );
  return Math.max(...middles) - Math.min(...middles);
}
