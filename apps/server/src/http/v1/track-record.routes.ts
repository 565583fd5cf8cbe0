import {
  apiErrorSchema,
  trackRecordQuerySchema,
  trackRecordResponseSchema,
  v1Paths,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { trackRecordCacheMs } from '../../services/track-record.service';
import { limitAttempts } from '../rate-limits';

/** The public track record (issue 12; docs/decisions/060-track-record.md). No session. */
export const trackRecordRoutes: FastifyPluginAsyncZod = async (app) => {
  const { trackRecord } = app.services;
  app.get(
    v1Paths.trackRecord,
    {
      preHandler: limitAttempts(app, 'trackRecord'),
      schema: {
        tags: ['track record'],
        summary: "The robot's own account: its figures and every operation, newest first",
        description:
          'The robot trades its own account at the built-in platform from the moment this ' +
          'server first started, with the published rules. Every operation is listed, a page ' +
          "at a time (`before` is the previous page's `nextCursor`). The figures are computed " +
          'from the stored operations: win rate and the break-even win rate, realised profit, ' +
          "and the model's accuracy and Brier score against a coin flip and the base rate. " +
          `Answers may be up to ${String(trackRecordCacheMs / 1000)} s old.`,
        querystring: trackRecordQuerySchema,
        response: {
          200: trackRecordResponseSchema,
          422: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const data = await trackRecord.read(request.query);
      void reply.header('cache-control', `public, max-age=${String(trackRecordCacheMs / 1000)}`);
      return { data };
    },
  );
};
