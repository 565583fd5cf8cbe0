import {
  accountPaths,
  apiErrorSchema,
  emailConfirmedResponseSchema,
  emailLinkRequestSchema,
  emailUndoneResponseSchema,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { limitAttempts } from '../rate-limits';

/**
 * The links an e-mail change mails (decision 089). No session: the link may be opened on
 * another device; the unguessable token, mailed to that address only, is the proof.
 */
export const emailChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { emailChange } = app.services;
  const tags = ['accounts'];
  const limit = limitAttempts(app, 'accountEmailLink');
  const refusals = {
    404: apiErrorSchema,
    409: apiErrorSchema,
    422: apiErrorSchema,
    429: apiErrorSchema,
  };

  app.post(
    accountPaths.emailConfirm,
    {
      preHandler: limit,
      schema: {
        tags,
        summary: 'Use the link mailed to the new address: it becomes the account\u2019s',
        description:
          'Every session but the one that asked for the change ends. An unknown, used, cancelled ' +
          'or expired link is a 404; an address that got an account meanwhile, a 409.',
        body: emailLinkRequestSchema,
        response: { 200: emailConfirmedResponseSchema, ...refusals },
      },
    },
    async (request) => ({ data: await emailChange.confirm(request.body.token) }),
  );

  app.post(
    accountPaths.emailUndo,
    {
      preHandler: limit,
      schema: {
        tags,
        summary: '"It was not me", from the old address: the change is undone, every session ends',
        description:
          'Works for a week: cancels a change still waiting, or puts the old address back if the ' +
          'change was confirmed and is still the account\u2019s. 404 for an unknown or expired link.',
        body: emailLinkRequestSchema,
        response: { 200: emailUndoneResponseSchema, ...refusals },
      },
    },
    async (request) => ({ data: await emailChange.undo(request.body.token) }),
  );
};
