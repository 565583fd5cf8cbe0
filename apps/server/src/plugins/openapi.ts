import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document is generated from the same zod schemas that validate requests,
 * so it cannot drift from what the server accepts. JSON at /core-api/docs/json.
 */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tradebot API',
        description:
          'Public API of the Tradebot web app. Answers are `{ "data": ... }`; errors are ' +
          '`{ "message", "code", "errors"? }` with the message in the request language ' +
          '(body `language`, then Accept-Language; es by default).',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/core-api/docs' });
}
