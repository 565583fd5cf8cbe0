import {
  apiErrorSchema,
  linkAccountRequestSchema,
  linkAccountResponseSchema,
  tradingPlatformLoginRequestSchema,
  tradingPlatformLoginResponseSchema,
  v1Paths,
} from '@tradebot/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser, userOf } from '../authenticate';
import { limitAttempts } from '../rate-limits';

const errors = {
  401: apiErrorSchema,
  403: apiErrorSchema,
  409: apiErrorSchema,
  422: apiErrorSchema,
  429: apiErrorSchema,
  503: apiErrorSchema,
};

/** spec §2 LinkAccount and TradearLogin (docs/decisions/049-linking-and-the-platform-port.md). */
export const linkingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { linking } = app.services;
  const userIdOf = (request: FastifyRequest) => userOf(request).id;
  // A session first, so that a request without one is a 401 whatever its body.
  app.addHook('onRequest', requireUser(app));

  app.post(
    v1Paths.linkAccount,
    {
      preHandler: limitAttempts(app, 'linkAccount', userIdOf),
      schema: {
        tags: ['linking'],
        summary: 'Register at the trading platform and link it (needs payment, not linked yet)',
        description:
          'Opens an account at the built-in platform with its starting demo balance, under the ' +
          "user's e-mail and the platform password given here. 403 before payment, 409 once " +
          'linked, 409 PLATFORM_EMAIL_TAKEN when the platform already has an account for the ' +
          'e-mail: log in there instead.',
        security: [{ bearer: [] }],
        body: linkAccountRequestSchema,
        response: { 201: linkAccountResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      const linked = await linking.link(user, { password: request.body.password });
      return reply.status(201).send({ data: linked });
    },
  );

  app.post(
    v1Paths.tradingPlatformLogin,
    {
      preHandler: limitAttempts(app, 'tradingPlatformLogin', userIdOf),
      schema: {
        tags: ['linking'],
        summary: 'Log in to the trading platform (spec TradearLogin)',
        description:
          "With the user's e-mail and the platform password. The credentials are kept " +
          'encrypted and never returned. A wrong password is a 422 on `password`.',
        security: [{ bearer: [] }],
        body: tradingPlatformLoginRequestSchema,
        response: { 200: tradingPlatformLoginResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = userOf(request);
      await linking.logIn(user, { password: request.body.password });
      return { data: { linked: true as const, login_tradear: true as const } };
    },
  );
};
