import {
  apiErrorSchema,
  emailSubscriptionRequestSchema,
  emailSubscriptionResponseSchema,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestLanguage } from '../language';
import { limitAttempts } from '../rate-limits';

export const emailSubscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/email-subscription',
    {
      preHandler: limitAttempts(app, 'emailSubscription', (request) => {
        const { email } = request.body as { email?: unknown };
        return typeof email === 'string' ? email : undefined;
      }),
      schema: {
        tags: ['marketing'],
        summary: 'Subscribe an e-mail from a promotion landing page',
        description:
          'Stored once per e-mail; a new and a known address get the same 201 answer. ' +
          "The promotion's free-month code is e-mailed the first time, and again on a repeat a " +
          'day after the last mail. 422 on `promo` when the promotion has no usable code.',
        body: emailSubscriptionRequestSchema,
        response: {
          201: emailSubscriptionResponseSchema,
          422: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const status = await app.services.emailSubscription.subscribe(
        request.body.email,
        request.body.promo,
        requestLanguage(request),
      );
      return reply.status(201).send({ data: { status } });
    },
  );
};
