import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromePath } from './support/browser';
import { startServer, type RunningServer } from './support/server';

/**
 * Lighthouse's judgements that do not depend on the machine's speed (docs/decisions/054):
 * accessibility, best practices and SEO, on the mobile profile, on the pages visitors land on.
 * Speed (performance and LCP) is a benchmark, not a test: `npm run bench:lighthouse` measures
 * it against the same pages without JavaScript in one run and records it in
 * docs/benchmarks.md. On a two-core machine shared with other work the same build scored 100
 * quiet and 81 under load, so a timed assertion here failed CI on the machine, not the pages.
 */
const pages = ['/', '/login'];
const categories = ['accessibility', 'best-practices', 'seo'] as const;

describe('Lighthouse, mobile', () => {
  let server: RunningServer;
  let chrome: LaunchedChrome;

  beforeAll(async () => {
    server = await startServer({ ROBOT_ENABLED: 'false', SEED_DEMO: 'false' });
    chrome = await launch({
      chromePath: chromePath(),
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    chrome.kill();
    await server.stop();
  });

  it.each(pages)(
    '%s: accessibility, best practices and SEO 100',
    async (path) => {
      const result = await lighthouse(new URL(path, server.url).href, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...categories],
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
      expect(result.lhr.runtimeError).toBeUndefined();
      const failing = Object.values(result.lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 1)
        .filter((audit) =>
          categories.some((id) =>
            result.lhr.categories[id]?.auditRefs.some(
              (ref) => ref.id === audit.id && ref.weight > 0,
            ),
          ),
        )
        .map((audit) => `${audit.id}: ${audit.title}`);
      expect(failing).toEqual([]);
      for (const id of categories) expect(result.lhr.categories[id]?.score).toBe(1);
    },
    180_000,
  );
});
