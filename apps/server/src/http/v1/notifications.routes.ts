import {
  apiErrorSchema,
  notificationPaths,
  notificationSettingsResponseSchema,
  pushKeyResponseSchema,
  pushSubscriptionRequestSchemaAccepting,
  pushSubscriptionResponseSchema,
  removePushSubscriptionRequestSchema,
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

  app.get(
    notificationPaths.pushKey,
    {
      schema: {
        tags,
        summary: 'The server\u2019s VAPID public key, for PushManager.subscribe',
        security,
        response: { 200: pushKeyResponseSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    () => ({ data: { publicKey: notifications.pushKey() } }),
  );

  app.post(
    notificationPaths.pushSubscriptions,
    {
      schema: {
        tags,
        summary: 'Keep this browser\u2019s push subscription (PushSubscription.toJSON())',
        description:
          'The events switched on reach it by push as well as by e-mail; a subscription its ' +
          'push service says is gone (404, 410) is deleted. The endpoint must be a browser ' +
          'push service\u2019s (FCM, Mozilla, Apple, WNS) on port 443 without credentials.',
        security,
        body: pushSubscriptionRequestSchemaAccepting((endpoint) =>
          notifications.acceptsPushEndpoint(endpoint),
        ),
        response: {
          201: pushSubscriptionResponseSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          422: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
      preHandler: limitChanges,
    },
    async (request, reply) => {
      const { endpoint, keys } = request.body;
      await notifications.subscribePush(userOf(request), { endpoint, ...keys });
      return reply.code(201).send({ data: { subscribed: true } });
    },
  );

  app.delete(
    notificationPaths.pushSubscriptions,
    {
      schema: {
        tags,
        summary: 'Forget this browser\u2019s push subscription',
        security,
        body: removePushSubscriptionRequestSchema,
        response: {
          200: pushSubscriptionResponseSchema,
          401: apiErrorSchema,
          422: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
      preHandler: limitChanges,
    },
    async (request) => {
      await notifications.unsubscribePush(userOf(request), request.body.endpoint);
      return { data: { subscribed: false } };
    },
  );
};
