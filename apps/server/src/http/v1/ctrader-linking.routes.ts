import {
  apiErrorSchema,
  ctraderAuthorizeRequestSchema,
  ctraderAuthorizeResponseSchema,
  ctraderCallbackRequestSchema,
  ctraderCallbackResponseSchema,
  ctraderLinkRequestSchema,
  ctraderLinkResponseSchema,
  ctraderPaths,
  ctraderStatusResponseSchema,
  unlinkAccountRequestSchema,
  unlinkAccountResponseSchema,
  v1Paths,
} from '@tradebot/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser, userOf } from '../authenticate';
import { limitAttempts } from '../rate-limits';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  422: apiErrorSchema,
  429: apiErrorSchema,
  503: apiErrorSchema,
};

/** Linking a cTrader broker through OAuth2, and ending any link (decision 091). */
export const ctraderLinkingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctraderLinking, unlinking } = app.services;
  const userIdOf = (request: FastifyRequest) => userOf(request).id;
  app.addHook('onRequest', requireUser(app));

  app.get(
    ctraderPaths.status,
    {
      schema: {
        tags: ['linking'],
        summary: 'Whether cTrader brokers can be linked here, and the accounts granted so far',
        security: [{ bearer: [] }],
        response: { 200: ctraderStatusResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => ({ data: await ctraderLinking.status(userOf(request)) }),
  );

  app.post(
    ctraderPaths.authorize,
    {
      preHandler: limitAttempts(app, 'ctraderLinking', userIdOf),
      schema: {
        tags: ['linking'],
        summary: "cTrader ID's granting page, with a fresh state (needs payment, not linked)",
        security: [{ bearer: [] }],
        body: ctraderAuthorizeRequestSchema,
        response: { 200: ctraderAuthorizeResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await ctraderLinking.authorize(userOf(request)) }),
  );

  app.post(
    ctraderPaths.callback,
    {
      preHandler: limitAttempts(app, 'ctraderLinking', userIdOf),
      schema: {
        tags: ['linking'],
        summary: 'The code and state cTrader sent back: the accounts the user granted',
        description:
          'A state that is not the user’s authorisation under way, already used or older than ' +
          'an hour is a 400; so is a code cTrader refuses (expired, used).',
        security: [{ bearer: [] }],
        body: ctraderCallbackRequestSchema,
        response: { 200: ctraderCallbackResponseSchema, ...errors },
      },
    },
    async (request) => ({
      data: await ctraderLinking.callback(userOf(request), {
        code: request.body.code,
        state: request.body.state,
      }),
    }),
  );

  app.post(
    ctraderPaths.link,
    {
      preHandler: limitAttempts(app, 'ctraderLinking', userIdOf),
      schema: {
        tags: ['linking'],
        summary: 'Link the account picked among those granted',
        security: [{ bearer: [] }],
        body: ctraderLinkRequestSchema,
        response: { 201: ctraderLinkResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { account } = await ctraderLinking.link(userOf(request), {
        ctidTraderAccountId: request.body.ctidTraderAccountId,
      });
      return reply.status(201).send({
        data: {
          linked: true as const,
          login_tradear: true as const,
          platform: 'ctrader' as const,
          account,
        },
      });
    },
  );

  app.post(
    v1Paths.unlinkAccount,
    {
      preHandler: limitAttempts(app, 'unlinkAccount', userIdOf),
      schema: {
        tags: ['linking'],
        summary: 'End the link: the robot stops, operations closed on request, credentials erased',
        description:
          'Confirmed with the Tradebot password (422 on `password` when wrong). With ' +
          '`closeOperations` the robot closes every open operation first (503 when the robot ' +
          'cannot now: nothing changed). 409 when nothing is linked.',
        security: [{ bearer: [] }],
        body: unlinkAccountRequestSchema,
        response: { 200: unlinkAccountResponseSchema, ...errors },
      },
    },
    async (request) => ({
      data: await unlinking.unlink(userOf(request), {
        password: request.body.password,
        closeOperations: request.body.closeOperations,
      }),
    }),
  );
};
