import { apiErrorSchema, healthResponseSchema, readyResponseSchema } from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from './errors';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness: the process answers',
        response: { 200: healthResponseSchema },
      },
    },
    async () => ({ data: { status: 'ok' as const, uptimeSeconds: Math.round(process.uptime()) } }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the database answers',
        response: { 200: readyResponseSchema, 503: apiErrorSchema },
      },
    },
    async () => {
      try {
        await app.database.ping();
      } catch (error) {
        app.log.warn({ err: error }, 'database ping failed');
        throw new AppError('SERVICE_UNAVAILABLE');
      }
      return { data: { status: 'ready' as const, database: 'up' as const } };
    },
  );
};
