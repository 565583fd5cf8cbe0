import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import { catalogueText } from './support/catalogue';
import {
  logInDemo,
  screenshotAt,
  tradingData,
  until,
  useLiveAccountPage,
} from './support/live-account';

/**
 * Notifications (issue 22; decision 088): the profile's e-mail notices, switched and kept in
 * es and pt at 390 and 1280 px, and an operation closed reaching the user's inbox as an .eml.
 */
type Language = 'es' | 'pt';
const text = (language: Language, key: string) => catalogueText(language, 'robot-settings', key);
const address = (language: Language, route: string) => (language === 'pt' ? `/pt${route}` : route);

async function openProfileConfig(page: Page, language: Language) {
  await page.goto(address(language, '/profile-config'));
  await page.getByRole('heading', { level: 1, name: text(language, 'title') }).waitFor();
}

const switchOf = (page: Page, language: Language, event: string) =>
  page.getByRole('switch', { name: text(language, `notifications.events.${event}.label`) });

/** Flips a notice's switch, waits for its save to answer 200 and say so. */
async function flip(page: Page, language: Language, event: string): Promise<string | null> {
  const control = switchOf(page, language, event);
  await control.waitFor();
  const was = await control.getAttribute('aria-checked');
  const answered = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/v1/notifications/settings') &&
      response.request().method() === 'PUT',
  );
  // The keyboard: focus, then Space toggles the switch.
  await control.focus();
  await page.keyboard.press('Space');
  expect((await answered).status()).toBe(200);
  await page
    .getByRole('status')
    .filter({ hasText: text(language, 'saved') })
    .last()
    .waitFor();
  const now = await control.getAttribute('aria-checked');
  expect(now).not.toBe(was);
  return now;
}

/** The e-mails written under DATA_DIR/mail/, quoted-printable undone, UTF-8 read. */
async function mails(dataDir: string): Promise<string[]> {
  const directory = path.join(dataDir, 'mail');
  const names = (await fs.readdir(directory).catch(() => [] as string[])).filter((name) =>
    name.endsWith('.eml'),
  );
  const contents = await Promise.all(
    names.map((name) => fs.readFile(path.join(directory, name), 'latin1')),
  );
  return contents.map((content) =>
    Buffer.from(
      content
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8'),
  );
}

describe('e-mail notices in the profile (issue 22)', () => {
  const state = useLiveAccountPage();

  for (const [language, width] of [
    ['es', 1280],
    ['pt', 390],
    ['es', 390],
    ['pt', 1280],
  ] as const) {
    it(`switches notices and keeps them across a reload (${language}, ${String(width)} px)`, async () => {
      const { page } = state;
      await page.setViewportSize({ width, height: 800 });
      await logInDemo(page);
      await openProfileConfig(page, language);
      await page
        .getByRole('heading', { level: 2, name: text(language, 'notifications.title') })
        .waitFor();
      const operations = await flip(page, language, 'operations');
      const summary = await flip(page, language, 'daily_summary');
      await page.reload();
      await page.getByRole('heading', { level: 1, name: text(language, 'title') }).waitFor();
      await until(
        async () =>
          (await switchOf(page, language, 'operations').getAttribute('aria-checked')) ===
          operations,
        'the saved notices after a reload',
        10_000,
      );
      expect(await switchOf(page, language, 'daily_summary').getAttribute('aria-checked')).toBe(
        summary,
      );
      await screenshotAt(page, `profile-notifications-${language}`, width);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }, 90_000);
  }

  it('asks for the browser’s permission only after a click on the device button', async () => {
    const { page } = state;
    await logInDemo(page);
    await openProfileConfig(page, 'es');
    const button = page.getByRole('button', { name: text('es', 'notifications.push.enable') });
    await button.waitFor();
    // The page loaded and asked nothing: the permission is still the browser's default.
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length),
    ).toBe(0);
    await button.focus();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain(
      text('es', 'notifications.push.enable'),
    );
  }, 60_000);

  it('an operation closed reaches the inbox as an e-mail in the account’s language', async () => {
    const { page, server } = state;
    await logInDemo(page);
    // Every fill on, through the screen's own call.
    const saved = await page.evaluate(async () => {
      const response = await fetch('/core-api/public/api/v1/notifications/settings', {
        method: 'PUT',
        headers: {
          Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          operations: true,
          stop_loss: true,
          robot_stopped: true,
          margin_warning: true,
          daily_summary: true,
        }),
      });
      return response.status;
    });
    expect(saved).toBe(200);
    await until(
      async () => (await tradingData(page)).trades.length > 0,
      'an open operation',
      90_000,
    );
    const closed = await page.evaluate(async () => {
      const response = await fetch('/core-api/public/api/v1/robot/kill', {
        method: 'POST',
        headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
      });
      return response.status;
    });
    expect(closed).toBe(200);
    const mail = await until(
      async () =>
        (await mails(server.dataDir)).find(
          (content) => /^To: .*demo@tradebot\.app/im.test(content) && content.includes('Cerró:'),
        ),
      'the e-mail of the closed operation',
      // Operations are mailed at most once a minute: when the opening's e-mail has just gone
      // out, the closing waits for the next minute (plus the outbox's 5 s tick).
      90_000,
    );
    expect(mail).toMatch(
      /Cerró: (compra|venta) de .+, (al alcanzar el objetivo|en el stop-loss|por falta de margen|por la parada de emergencia)\. Resultado: [+-]?USD/,
    );
    expect(mail).toContain('dinero es simulado');
    // The kill switch's own notice does not wait for the minute of the operations.
    await until(
      async () =>
        (await mails(server.dataDir)).some((content) =>
          content.includes('Tu robot se apagó con la parada de emergencia'),
        ),
      'the robot-stopped e-mail',
      30_000,
    );
  }, 240_000);
});
