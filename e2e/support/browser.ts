import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, or CHROME_PATH. We never download a browser. */
export function chromePath(): string {
  const candidate = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(candidate)) {
    throw new Error(
      `Chromium not found at ${candidate}. Install it with "apt-get install -y chromium" ` +
        'or set CHROME_PATH.',
    );
  }
  return candidate;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromePath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A page in a context of its own, at `width`, whose app starts in `language` (stored as the
 * reader's choice unless the page itself stores another).
 */
export async function pageInLanguage(
  browser: Browser,
  baseURL: string,
  language: string,
  width: number,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width, height: 800 } });
  await context.addInitScript((stored) => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', stored);
  }, language);
  return { context, page: await context.newPage() };
}
