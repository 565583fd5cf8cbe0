// npm run screenshots:home: the home page's picture of the product (issue 12). Starts the built
// server with the demo account on a fast simulated market, logs in as the demo user in Debian's
// headless Chromium, waits until the robot has opened and closed a few operations, and captures
// the dashboard in each language: a phone's view (360 px, at 1x and 2x) and a desktop's
// (1280 px). Chromium itself encodes the WebP files (a canvas), so nothing else is installed.
// They go to apps/web/public/images/home/, where the home page's <picture> reads them.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { root, serverEnv, startServer, stopServer } from './bench-support.mjs';

const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const outputDir = path.join(root, 'apps/web/public/images/home');
/** Closed operations the history should show before the pictures are taken. */
const wantedClosed = Number(process.env.SCREENSHOTS_CLOSED ?? 3);
const quality = 0.8;
/** Where to keep the PNGs too, to look at them (optional). */
const pngDir = process.env.SCREENSHOTS_PNG_DIR;

const shots = [
  { name: '360', width: 360, height: 640, scale: 1 },
  { name: '720', width: 360, height: 640, scale: 2 },
  { name: '1280', width: 1280, height: 800, scale: 1 },
];
const languages = ['es', 'pt'];

const serverEntry = path.join(root, 'apps/server/dist/main.js');
for (const built of [serverEntry, path.join(root, 'apps/web/dist/index.html')]) {
  await fs.access(built).catch(() => {
    throw new Error(`${built} is missing: run "npm run build" first`);
  });
}

// SCREENSHOTS_URL: a server already running with the demo account (npm start); else one of its
// own, on a fresh data directory, removed afterwards.
const dataDir = process.env.SCREENSHOTS_URL
  ? undefined
  : await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-screenshots-'));
const server = dataDir
  ? await startServer(
      serverEntry,
      serverEnv(dataDir, { SEED_DEMO: 'true', MARKET_SPEED: '20', MARKET_SEED: '11' }),
    )
  : { url: process.env.SCREENSHOTS_URL };
const browser = await chromium.launch({
  executablePath: chromePath,
  args: ['--no-sandbox', '--disable-gpu'],
});

/** Polls `check` every half second until it holds, or fails after `timeoutMs`. */
async function until(check, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A PNG as WebP, encoded by the page's canvas. */
async function toWebp(page, png) {
  const base64 = await page.evaluate(
    async ({ data, quality: q }) => {
      const { document, Image } = globalThis;
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      canvas.getContext('2d').drawImage(image, 0, 0);
      return canvas.toDataURL('image/webp', q).split(',')[1];
    },
    { data: png.toString('base64'), quality },
  );
  return Buffer.from(base64, 'base64');
}

try {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  console.log(`server at ${server.url}; logging in as the demo user`);
  await page.goto('/login');
  // The prerendered form takes typing once the app has hydrated it.
  await page.waitForFunction(() => {
    const heading = globalThis.document.querySelector('h1');
    return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber$'));
  });
  await page.getByLabel('Correo electrónico').fill('demo@tradebot.app');
  await page.getByLabel('Contraseña', { exact: true }).fill('Demo1234');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/dashboard', { timeout: 120_000 });
  console.log('logged in; waiting for the robot to trade');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await until(
    async () => {
      const response = await fetch(new URL('/core-api/public/api/v1/get-all-data', server.url), {
        headers: { Authorization: `Bearer ${token}` },
      });
      const { data } = await response.json();
      process.stdout.write(
        `\r${String(data.closed.length)} closed, ${String(data.trades.length)} open`,
      );
      return data.closed.length >= wantedClosed && data.trades.length > 0;
    },
    `${String(wantedClosed)} closed operations and one open`,
    600_000,
  );
  const storage = await context.storageState();
  await context.close();

  await fs.mkdir(outputDir, { recursive: true });
  for (const language of languages) {
    for (const shot of shots) {
      const shotContext = await browser.newContext({
        baseURL: server.url,
        storageState: storage,
        viewport: { width: shot.width, height: shot.height },
        deviceScaleFactor: shot.scale,
        reducedMotion: 'reduce',
      });
      const shotPage = await shotContext.newPage();
      await shotPage.addInitScript((chosen) => {
        localStorage.setItem('language', chosen);
      }, language);
      await shotPage.goto(language === 'es' ? '/dashboard' : '/pt/dashboard');
      await shotPage.getByRole('meter').waitFor({ timeout: 120_000 });
      await shotPage
        .locator('[data-operation-id]')
        .first()
        .waitFor({ state: 'attached', timeout: 120_000 });
      // The chart draws itself on a canvas after its data arrives.
      await shotPage.waitForTimeout(1500);
      const png = await shotPage.screenshot({ type: 'png' });
      if (pngDir)
        await fs.writeFile(path.join(pngDir, `dashboard-${shot.name}.${language}.png`), png);
      const file = path.join(outputDir, `dashboard-${shot.name}.${language}.webp`);
      await fs.writeFile(file, await toWebp(shotPage, png));
      const { size } = await fs.stat(file);
      console.log(`${path.relative(root, file)}: ${(size / 1024).toFixed(1)} KB`);
      await shotContext.close();
    }
  }
} finally {
  await browser.close();
  if (dataDir) {
    await stopServer(server);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
