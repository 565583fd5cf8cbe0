import {
  apiErrorSchema,
  contactRequestSchema,
  contactResponseSchema,
  supportApiPaths,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser, userOf } from '../authenticate';
import { requestLanguage } from '../language';
import { limitAttempts } from '../rate-limits';

/** spec §2 Contact (requires login): a message to support (docs/decisions/056). */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { contact } = app.services;

  app.post(
    supportApiPaths.contact,
    {
      // Before validation: a request without a valid token is a 401 whatever its body.
      onRequest: requireUser(app),
      preHandler: limitAttempts(app, 'contact', (request) => userOf(request).id),
      schema: {
        tags: ['support'],
        summary: 'Send a message to support; answers when its reply falls due',
        description:
          'Stored, e-mailed to the support address and acknowledged to the user by e-mail, in ' +
          'their language, with the 24-working-hour promise.',
        security: [{ bearer: [] }],
        body: contactRequestSchema,
        response: {
          201: contactResponseSchema,
          401: apiErrorSchema,
          422: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      const { kind, subject, message } = request.body;
      const sent = await contact.send(
        user,
        { kind, subject, message },
        requestLanguage(request, user.language),
      );
      return reply.status(201).send({ data: sent });
    },
  );
};
