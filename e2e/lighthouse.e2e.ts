import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromePath } from './support/browser';
import { cpuMeter, waitForQuietCpu } from './support/cpu';
import { startServer, type RunningServer } from './support/server';

/**
 * What users feel on the pages they land on (docs/decisions/054): Lighthouse 12's mobile
 * profile (a mid-range phone on a slow 4G link, simulated), on the home page and /login.
 * The server is one of its own without the robot, so nothing else runs in its process.
 *
 * The machine has two cores shared with other work. Lighthouse multiplies every main-thread
 * task it sees by four, so a burst of someone else's work turns into blocking time the page
 * never caused (the same build scores 100 on a quiet machine and 92 under load). Noise only
 * ever adds time, so, as Lighthouse CI does by default (its "optimistic" aggregation): each
 * page is loaded once to warm up, then measured five times, each load waiting for the cores to
 * go quiet first; performance and LCP are judged on the best load, accessibility, best
 * practices and SEO on the worst. The thresholds are the issue's, unchanged. Every load's
 * figures are printed with the machine's CPU use during it.
 */
const runs = 5;
const pages = ['/', '/login'];
const thresholds = { performance: 0.98, accessibility: 1, 'best-practices': 1, seo: 1 };
const maxLcpMs = 1200;

interface Run {
  scores: Record<keyof typeof thresholds, number>;
  /** The machine's CPU use (all cores, every process) while Lighthouse loaded the page. */
  cpuBusy: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
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
    await waitForQuietCpu();
    const meter = await cpuMeter();
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
    const cpuBusy = await meter.busy();
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
      cpuBusy,
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
      // The best load for speed (noise only adds time), the worst for everything else.
      const result = {
        performance: Math.max(...measured.map((run) => run.scores.performance)),
        accessibility: Math.min(...measured.map((run) => run.scores.accessibility)),
        'best-practices': Math.min(...measured.map((run) => run.scores['best-practices'])),
        seo: Math.min(...measured.map((run) => run.scores.seo)),
        lcpMs: Math.min(...measured.map((run) => run.lcpMs)),
      };
      console.info(
        `Lighthouse ${path}: ${measured
          .map(
            (run) =>
              `perf ${String(Math.round(run.scores.performance * 100))} ` +
              `LCP ${String(Math.round(run.lcpMs))} ms FCP ${String(Math.round(run.fcpMs))} ms ` +
              `TBT ${String(Math.round(run.tbtMs))} ms CLS ${run.cls.toFixed(3)} ` +
              `CPU ${String(Math.round(run.cpuBusy * 100))}%`,
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
