import { accountPaths, apiErrorSchema } from '@tradebot/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DataExportService } from '../../services/data-export.service';
import { requireUser, userOf } from '../authenticate';
import { requestLanguage } from '../language';
import { limitAttempts } from '../rate-limits';

/** "Download my data" (issue 39; LGPD art. 18; decision 153). */
export function dataExportRoutes(exports: DataExportService): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireUser(app));
    const limit = limitAttempts(app, 'dataExport', (request: FastifyRequest) => userOf(request).id);
    app.get(
      accountPaths.dataExport,
      {
        schema: {
          tags: ['accounts'],
          summary: 'Every piece of data we hold about the user, as a JSON file',
          description:
            'Profile, robot settings, consents, sessions, e-mail changes, the free-month form, ' +
            'promo codes, subscriptions and payments, broker gifts, broker links (without ' +
            'credentials, tokens or sealed grants), the platform account, deposits and every ' +
            'operation, notification settings, push subscriptions (their push service only) and ' +
            'support messages with their replies. No password or code hash, no token. Each ' +
            'export is recorded in the audit log (its size and counts, not its content); five ' +
            'per hour per user.',
          security: [{ bearer: [] }],
          produces: ['application/json'],
          response: {
            200: z.string(),
            401: apiErrorSchema,
            404: apiErrorSchema,
            429: apiErrorSchema,
          },
        },
        preHandler: limit,
      },
      async (request, reply) => {
        const file = await exports.export(
          userOf(request).id,
          requestLanguage(request, userOf(request).language),
        );
        return reply
          .type('application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );
  };
}
