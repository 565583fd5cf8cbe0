import {
  apiErrorSchema,
  closeOperationResponseSchema,
  operationParamsSchema,
  v1Paths,
} from '@tradebot/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OperationClosingService } from '../../services/operation-closing.service';
import { requireUser, userOf } from '../authenticate';
import { limitAttempts } from '../rate-limits';

/** The user closes one open operation at the market (issue 39; decision 152). */
export function operationClosingRoutes(closing: OperationClosingService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireUser(app));
    const limit = limitAttempts(
      app,
      'closeOperation',
      (request: FastifyRequest) => userOf(request).id,
    );
    app.post(
      v1Paths.closeOperation,
      {
        schema: {
          tags: ['trading'],
          summary: 'Close one open operation at the market (reason `manual`)',
          description:
            'The command reaches the robot trading the account (the process holding it, ' +
            'decision 105), which closes the position at its platform and waits until the ' +
            'closure is booked; the answer is the row as it closed. A repeat for an operation ' +
            'the user already closed answers the same row. 404: not an operation of the ' +
            "user's; 409: it had closed otherwise (take-profit, stop-loss, kill switch); " +
            '503: the robot did not answer or the platform did not confirm yet (it may still be open).',
          security: [{ bearer: [] }],
          params: operationParamsSchema,
          response: {
            200: closeOperationResponseSchema,
            401: apiErrorSchema,
            403: apiErrorSchema,
            404: apiErrorSchema,
            409: apiErrorSchema,
            422: apiErrorSchema,
            429: apiErrorSchema,
            503: apiErrorSchema,
          },
        },
        preHandler: limit,
      },
      async (request) => ({
        data: { operation: await closing.close(userOf(request).id, request.params.id) },
      }),
    );
  };
}
