import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../http/errors';
import { bearerToken } from '../http/authenticate';
import { RobotStatsReader, httpDuration, metricsRegistry } from '../metrics/server-metrics';

export const metricsPath = '/metrics';

/** How long a scrape waits for the robot's thread before answering without its fresh counts. */
const robotStatsTimeoutMs = 2_000;

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics in Prometheus' text format (decision 150), for a scraper holding METRICS_TOKEN as
 * a bearer token; without METRICS_TOKEN it answers 404, as for any unknown path. With it, also
 * times every HTTP answer by route pattern (never by the URL, which carries ids and tokens).
 */
export function registerMetrics(app: FastifyInstance, token: string | undefined): void {
  // Timings nobody can read are not taken (decision 162): without METRICS_TOKEN no answer pays
  // for the hook and prom-client's observe, which checks and hashes the labels on every call.
  if (token !== undefined) timeAnswers(app);

  const expected = token === undefined ? undefined : digest(token);
  const robotStats = new RobotStatsReader();
  app.get(metricsPath, { schema: { hide: true } }, async (request, reply) => {
    if (!expected) throw new AppError('NOT_FOUND');
    const given = bearerToken(request);
    // Compared as digests: the same length whatever was sent, in constant time.
    if (!given || !timingSafeEqual(digest(given), expected)) {
      throw new AppError('UNAUTHENTICATED');
    }
    const robot = app.robot;
    if (robot?.running()) {
      let timer: NodeJS.Timeout | undefined;
      const stats = await Promise.race([
        robot.stats().catch(() => undefined),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => {
            resolve(undefined);
          }, robotStatsTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (stats) robotStats.apply(stats);
    }
    return reply
      .header('content-type', metricsRegistry.contentType)
      .header('cache-control', 'no-store')
      .send(await metricsRegistry.metrics());
  });
}

/** Times every answer by method, route pattern and status class (the scraped histogram). */
function timeAnswers(app: FastifyInstance): void {
  // One child per method, route and status class (prom-client still checks and hashes the labels
  // on each observe).
  const children = new Map<string, ReturnType<typeof httpDuration.labels>>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? '(no route)';
    const status = `${String(Math.floor(reply.statusCode / 100))}xx`;
    const key = `${request.method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = httpDuration.labels(request.method, route, status);
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });
}
