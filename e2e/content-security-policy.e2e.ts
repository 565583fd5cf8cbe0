import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logInDemo, until, useLiveAccountPage } from './support/live-account';

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

/**
 * Records every Content-Security-Policy violation of the page, from before its first script:
 * the listener is installed by the browser (not by the page, which the policy governs).
 */
async function watchViolations(page: Page): Promise<() => Promise<Violation[]>> {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      consoleErrors.push(message.text());
    }
  });
  await page.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { cspViolations: Violation[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${String(event.lineNumber)}`,
      });
    });
  });
  return async () => {
    const inPage = await page.evaluate(
      () => (window as unknown as { cspViolations?: Violation[] }).cspViolations ?? [],
    );
    return [
      ...inPage,
      ...consoleErrors.map((text) => ({ directive: 'console', blocked: text, source: '' })),
    ];
  };
}

const publicPaths = [
  '/',
  '/asked-questions',
  '/how-it-works',
  '/terms-and-conditions',
  '/login',
  '/register',
  '/forgot-password',
  '/promo/mesgratis',
];

describe('the Content-Security-Policy in Chromium (issue 11, finding 2)', () => {
  const state = useLiveAccountPage();

  it('public pages, the dashboard with its chart, live channel and dialog, and the API docs run without a violation', async () => {
    const { page } = state;
    const violations = await watchViolations(page);

    for (const path of publicPaths) {
      const response = await page.goto(path);
      expect(response?.headers()['content-security-policy'], path).toContain("script-src 'self'");
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await violations(), path).toEqual([]);
    }

    await logInDemo(page);
    // The chart (lightweight-charts draws on canvas), the real-time channel (the robot's
    // state comes over Socket.IO) and a Radix dialog (its scroll lock writes a <style>).
    await page.locator('canvas').first().waitFor({ timeout: 60_000 });
    await page.getByTestId('robot-state').getByText('Encendido').waitFor();
    const connected = await until(
      () =>
        page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .some((entry) => entry.name.includes('/core-api/realtime/')),
        ),
      'the real-time channel to connect',
    );
    expect(connected).toBe(true);
    const closed = page
      .getByRole('region', { name: 'Operaciones cerradas' })
      .locator('[data-operation-id]')
      .first();
    await closed.waitFor({ timeout: 120_000 });
    await closed.click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await violations(), '/dashboard').toEqual([]);

    await page.goto('/core-api/docs');
    await page.getByText('Tradebot API').first().waitFor();
    expect(await violations(), '/core-api/docs').toEqual([]);
  }, 240_000);

  it('blocks an injected inline script, and the watch sees it (so the test above can fail)', async () => {
    const { page } = state;
    const violations = await watchViolations(page);
    await page.goto('/login');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.injectedRan = true';
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (window as unknown as { injectedRan?: boolean }).injectedRan === true;
    });
    expect(ran).toBe(false);
    expect((await violations()).map((violation) => violation.directive)).toContain(
      'script-src-elem',
    );
  });
});
