import {
  apiErrorSchema,
  notificationPaths,
  notificationSettingsResponseSchema,
  updateNotificationSettingsRequestSchema,
} from '@tradebot/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser, userOf } from '../authenticate';
import { limitAttempts } from '../rate-limits';

/** Which events the user hears about by e-mail (issue 22; decision 088). */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications } = app.services;
  app.addHook('onRequest', requireUser(app));
  const security = [{ bearer: [] }];
  const tags = ['notifications'];
  const limitChanges = limitAttempts(
    app,
    'accountChange',
    (request: FastifyRequest) => userOf(request).id,
  );

  app.get(
    notificationPaths.settings,
    {
      schema: {
        tags,
        summary: 'Which events are notified, and the time zone of the daily summary',
        security,
        response: { 200: notificationSettingsResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => ({ data: await notifications.settings(userOf(request)) }),
  );

  app.put(
    notificationPaths.settings,
    {
      schema: {
        tags,
        summary: 'Switch each event on or off (every flag is sent)',
        description:
          '`time_zone` (IANA, the browser\u2019s) places the daily summary at 20:00 local time; ' +
          'when absent the stored one stays.',
        security,
        body: updateNotificationSettingsRequestSchema,
        response: {
          200: notificationSettingsResponseSchema,
          401: apiErrorSchema,
          422: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
      preHandler: limitChanges,
    },
    async (request) => ({
      data: await notifications.updateSettings(userOf(request), request.body),
    }),
  );
};
