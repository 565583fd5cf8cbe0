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
