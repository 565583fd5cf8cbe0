import {
  apiErrorSchema,
  updatePromocodeRequestSchema,
  updatePromocodeResponseSchema,
  validatePromocodeRequestSchema,
  validatePromocodeResponseSchema,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerToken, requireUser, userOf } from '../authenticate';
import { limitAttempts } from '../rate-limits';

export const promoCodesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { promoCodes, auth } = app.services;
  // Per account when signed in; the form at registration has only the address.
  const limitValidation = limitAttempts(app, 'validatePromocode', async (request) => {
    const token = bearerToken(request);
    const session = token ? await auth.authenticate(token) : undefined;
    return session?.user.id;
  });

  app.post(
    '/validate-promocode',
    {
      preHandler: limitValidation,
      schema: {
        tags: ['promo codes'],
        summary: 'Is this promotional code valid now?',
        body: validatePromocodeRequestSchema,
        response: {
          200: validatePromocodeResponseSchema,
          422: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => ({ data: await promoCodes.validate(request.body.promocode) }),
  );

  app.put(
    '/update-promocode',
    {
      preHandler: requireUser(app),
      schema: {
        tags: ['promo codes'],
        summary: "Apply a promotional code to the signed-in user's account",
        security: [{ bearer: [] }],
        body: updatePromocodeRequestSchema,
        response: { 200: updatePromocodeResponseSchema, 401: apiErrorSchema, 422: apiErrorSchema },
      },
    },
    async (request) => ({
      data: await promoCodes.applyToUser(userOf(request), request.body.promocode),
    }),
  );
};
