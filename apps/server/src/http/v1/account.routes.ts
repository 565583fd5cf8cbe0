import {
  apiErrorSchema,
  newsletterResponseSchema,
  userConfigResponseSchema,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser, userOf } from '../authenticate';

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { account } = app.services;
  app.addHook('preHandler', requireUser(app));

  app.get(
    '/get-settings',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The user config (spec §3)',
        security: [{ bearer: [] }],
        response: { 200: userConfigResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => ({ data: await account.userConfig(userOf(request)) }),
  );

  app.post(
    '/newsletter',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Toggle the newsletter subscription',
        security: [{ bearer: [] }],
        response: { 200: newsletterResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => ({
      data: { subscribed_newsletter: await account.toggleNewsletter(userOf(request)) },
    }),
  );
};
