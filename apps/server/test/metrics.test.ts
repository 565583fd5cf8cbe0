import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { httpDuration } from '../src/metrics/server-metrics';
import { useTestApp } from './helpers/app';
import { getAllData, runMarket, storedTrades, trader, useRobotApp } from './helpers/trading';

/** GET /metrics (decision 150): Prometheus' text format, behind METRICS_TOKEN. */

// The file's first app pays for the server's first import and schema on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const metricsToken = 'metrics-token-for-the-tests-0123456789';
const scrape = { authorization: `Bearer ${metricsToken}` };

/** Each sample line's value by its name and labels, as written (`name{labels}`). */
function samples(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

/**
 * The series names an answer declares (`# TYPE`), with a histogram's derived series: a labelled
 * counter nothing has counted yet has no sample, but a query naming it is still right.
 */
function seriesNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name = '', kind] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    const derived: Record<string, string[] | undefined> = {
      histogram: ['_bucket', '_sum', '_count'],
      summary: ['_sum', '_count'],
    };
    for (const suffix of derived[kind ?? ''] ?? []) names.add(name + suffix);
  }
  return names;
}

/** Every `tradebot_…` series docs/ops/grafana-dashboard.json's panels query. */
async function dashboardSeries(): Promise<string[]> {
  const file = path.resolve(import.meta.dirname, '../../../docs/ops/grafana-dashboard.json');
  const expressions: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'expr' && typeof inner === 'string') expressions.push(inner);
        else walk(inner);
      }
    }
  };
  walk(JSON.parse(await fs.readFile(file, 'utf8')));
  return [...new Set(expressions.flatMap((expr) => expr.match(/\btradebot_\w+/g) ?? []))];
}

describe('/metrics after a trade', () => {
  const context = useRobotApp({ METRICS_TOKEN: metricsToken });

  it('counts the orders sent and filled, the robot’s accounts and the HTTP answers by route', async () => {
    const { app } = context;
    const read = async () => {
      const answer = await app.inject({ url: '/metrics', headers: scrape });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toContain('text/plain');
      return samples(answer.body);
    };
    const before = await read();
    const { userId, headers } = await trader(app);
    const traded = await runMarket(
      context,
      async () => (await storedTrades(app, userId)).length > 0,
    );
    expect(traded).toBe(true);
    expect((await getAllData(app, headers)).statusCode).toBe(200);

    const after = await read();
    const moved = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    expect(moved('tradebot_orders_sent_total')).toBeGreaterThan(0);
    expect(moved('tradebot_orders_filled_total')).toBeGreaterThan(0);
    expect(after.get('tradebot_robot_accounts_held')).toBe(1);
    expect(after.has('tradebot_robot_tick_lag_seconds')).toBe(true);
    const allData =
      'tradebot_http_request_duration_seconds_count{method="GET",route="/core-api/public/api/v1/get-all-data",status="2xx"}';
    expect(moved(allData)).toBeGreaterThanOrEqual(1);
    // Labels carry route patterns and reasons, never a user's id.
    expect([...after.keys()].some((name) => name.includes(userId))).toBe(false);
  });

  it('declares every series the Grafana dashboard queries (issue 40)', async () => {
    const answer = await context.app.inject({ url: '/metrics', headers: scrape });
    const declared = seriesNames(answer.body);
    const queried = await dashboardSeries();
    expect(queried.length).toBeGreaterThan(10);
    expect(queried.filter((name) => !declared.has(name))).toEqual([]);
  });

  it('answers 401 without the token or with another', async () => {
    const { app } = context;
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = await app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${metricsToken}x` },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('tradebot_');
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  const context = useTestApp();

  it('is not there', async () => {
    const answer = await context.app.inject({ url: '/metrics', headers: scrape });
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain('tradebot_');
  });

  it('times no answer: nobody could read the timings (decision 162)', async () => {
    // The histogram is the process's; an app with METRICS_TOKEN in this file feeds it too.
    const answered = async () =>
      (await httpDuration.get()).values
        .filter((value) => value.metricName === 'tradebot_http_request_duration_seconds_count')
        .reduce((sum, value) => sum + value.value, 0);
    const before = await answered();
    for (let i = 0; i < 3; i++) {
      expect((await context.app.inject({ url: '/core-api/health' })).statusCode).toBe(200);
    }
    expect(await answered()).toBe(before);
  });
});
