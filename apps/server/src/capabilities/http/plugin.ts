import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { healthRoutes } from '../../http/health.routes';
import { registerRateLimits } from '../../http/rate-limits';
import { registerMetrics } from '../../plugins/metrics';
import { registerOpenApi } from '../../plugins/openapi';
import { registerSecurityHeaders } from '../../plugins/security-headers';

export interface HttpOptions {
  /** Prefix of the rate limits' Redis keys (with REDIS_URL), so that tests keep apart. */
  rateLimitRedisPrefix?: string | undefined;
}

/**
 * What every answer goes through: compression, security headers, rate limits, the OpenAPI
 * document and the health check. Registered before the capabilities, whose routes these hooks
 * (and the OpenAPI document) must see.
 */
export const http = fp(
  async (app: FastifyInstance, options: HttpOptions) => {
    await app.register(compress, { global: true, threshold: 1024 });
    // GET /metrics and the HTTP timings (decision 150).
    registerMetrics(app, app.config.METRICS_TOKEN);
    registerSecurityHeaders(app);
    await registerRateLimits(app, {
      redisUrl: app.config.REDIS_URL,
      ...(options.rateLimitRedisPrefix ? { redisPrefix: options.rateLimitRedisPrefix } : {}),
      onRedisError: (error) => {
        app.log.warn(
          { err: error },
          'rate limits: Redis failed; counting in this process meanwhile',
        );
      },
    });
    await registerOpenApi(app);
    await app.register(healthRoutes, { prefix: '/core-api' });
  },
  { name: 'http', dependencies: ['foundation'] },
);
