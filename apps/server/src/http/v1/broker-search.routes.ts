import {
  apiErrorSchema,
  brokerSearchRequestSchema,
  brokerSearchResponseSchema,
  v1Paths,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { limitAttempts } from '../rate-limits';

/** spec §2 searching-broker (docs/decisions/050-broker-directory-and-search.md). Public. */
export const brokerSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  const { brokerSearch } = app.services;
  app.post(
    v1Paths.brokerSearch,
    {
      preHandler: limitAttempts(app, 'brokerSearch'),
      schema: {
        tags: ['brokers'],
        summary: "The brokers of the directory that fit the visitor's answers",
        description:
          'The built-in trading platform comes first, always. Then the entries serving the ' +
          'country, offering every market chosen, with a minimum deposit within the amount, ' +
          'and the platform, regulation and robot asked for.',
        body: brokerSearchRequestSchema,
        response: {
          200: brokerSearchResponseSchema,
          422: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => {
      return { data: await brokerSearch.search(request.body) };
    },
  );
};
