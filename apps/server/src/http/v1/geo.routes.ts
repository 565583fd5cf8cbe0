import {
  apiErrorSchema,
  countryCodeRequestSchema,
  countryCodeResponseSchema,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const geoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/country-code',
    {
      schema: {
        tags: ['geo'],
        summary: "The caller's country, from its IP address",
        description:
          'Upper-case ISO code. AR for loopback, private or unknown addresses. ' +
          'X-Forwarded-For is honoured only when the server runs with TRUST_PROXY.',
        body: countryCodeRequestSchema,
        response: { 200: countryCodeResponseSchema, 422: apiErrorSchema },
      },
    },
    async (request) => ({ data: app.services.geo.countryCodeOf(request.ip) }),
  );
};
