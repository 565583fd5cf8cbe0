import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromePath } from './support/browser';
import { startServer, type RunningServer } from './support/server';

/**
 * What users feel on the pages they land on (docs/decisions/054): Lighthouse 12's mobile
 * profile (a mid-range phone on a slow 4G link, simulated), on the home page and /login.
 * Thresholds are not loosened for a noisy machine (two cores shared with other work): each
 * page is loaded once to warm the server and the browser up (a live server is warm), then
 * measured five times, and the median of each figure is judged. The server is one of its own
 * without the robot, so nothing else runs in its process.
 */
const runs = 5;
const pages = ['/', '/login'];
const thresholds = { performance: 0.98, accessibility: 1, 'best-practices': 1, seo: 1 };
const maxLcpMs = 1200;

interface Run {
  scores: Record<keyof typeof thresholds, number>;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

describe('Lighthouse, mobile', () => {
  let server: RunningServer;
  let chrome: LaunchedChrome;

  beforeAll(async () => {
    server = await startServer({ ROBOT_ENABLED: 'false', SEED_DEMO: 'false' });
    chrome = await launch({
      chromePath: chromePath(),
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  });
  afterAll(async () => {
    chrome.kill();
    await server.stop();
  });

  /**
   * One Lighthouse load. A load Lighthouse itself could not measure (a runtime error: no
   * paint seen, the page hung) is not a score: it is retried, twice at most, and said.
   */
  async function measure(path: string, attempt = 1): Promise<Run> {
    const result = await lighthouse(new URL(path, server.url).href, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: Object.keys(thresholds),
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
    const failure = result.lhr.runtimeError;
    if (failure) {
      if (attempt >= 3) throw new Error(`Lighthouse could not measure ${path}: ${failure.code}`);
      console.warn(`Lighthouse ${path}: ${failure.code} (${failure.message}); measuring again`);
      return measure(path, attempt + 1);
    }
    const { categories, audits } = result.lhr;
    const score = (id: string) => categories[id]?.score ?? 0;
    const value = (id: string) => audits[id]?.numericValue ?? Number.NaN;
    return {
      scores: {
        performance: score('performance'),
        accessibility: score('accessibility'),
        'best-practices': score('best-practices'),
        seo: score('seo'),
      },
      lcpMs: value('largest-contentful-paint'),
      fcpMs: value('first-contentful-paint'),
      tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
    };
  }

  it.each(pages)(
    '%s: performance >= 98, accessibility, best practices and SEO 100, LCP <= 1.2 s',
    async (path) => {
      await measure(path);
      const measured: Run[] = [];
      for (let run = 0; run < runs; run += 1) measured.push(await measure(path));
      const result = {
        performance: median(measured.map((run) => run.scores.performance)),
        accessibility: median(measured.map((run) => run.scores.accessibility)),
        'best-practices': median(measured.map((run) => run.scores['best-practices'])),
        seo: median(measured.map((run) => run.scores.seo)),
        lcpMs: median(measured.map((run) => run.lcpMs)),
      };
      console.info(
        `Lighthouse ${path}: ${measured
          .map(
            (run) =>
              `perf ${String(Math.round(run.scores.performance * 100))} ` +
              `LCP ${String(Math.round(run.lcpMs))} ms FCP ${String(Math.round(run.fcpMs))} ms ` +
              `TBT ${String(Math.round(run.tbtMs))} ms CLS ${run.cls.toFixed(3)}`,
          )
          .join(' | ')}`,
      );
      expect(result.performance).toBeGreaterThanOrEqual(thresholds.performance);
      expect(result.accessibility).toBe(thresholds.accessibility);
      expect(result['best-practices']).toBe(thresholds['best-practices']);
      expect(result.seo).toBe(thresholds.seo);
      expect(result.lcpMs).toBeLessThanOrEqual(maxLcpMs);
    },
    600_000,
  );
});
