import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
