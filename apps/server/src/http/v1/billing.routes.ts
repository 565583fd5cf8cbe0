import {
  apiErrorSchema,
  billingActionRequestSchema,
  billingOverviewResponseSchema,
  billingPaths,
  checkoutRequestSchema,
  checkoutResponseSchema,
  checkoutStatusParamsSchema,
  checkoutStatusResponseSchema,
  portalResponseSchema,
  webhookParamsSchema,
  webhookResponseSchema,
} from '@tradebot/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser, userOf } from '../authenticate';
import { requestLanguage } from '../language';
import { limitAttempts } from '../rate-limits';

const refusals = {
  401: apiErrorSchema,
  409: apiErrorSchema,
  422: apiErrorSchema,
  503: apiErrorSchema,
};
const limitedRefusals = { ...refusals, 429: apiErrorSchema };

/** Billing (issue 10; decision 047): the user's subscription, checkout and refunds. */
export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(userBillingRoutes);
  await app.register(webhookRoutes);
};

const userBillingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { billing } = app.services;
  app.addHook('onRequest', requireUser(app));
  const security = [{ bearer: [] }];
  const userIdOf = (request: FastifyRequest) => userOf(request).id;
  // One counter for every change of the subscription (decision 058).
  const limitChanges = limitAttempts(app, 'billingChange', userIdOf);

  app.get(
    billingPaths.overview,
    {
      schema: {
        tags: ['billing'],
        summary: 'Plan, status, next charge, payments, refund and gift',
        security,
        response: { 200: billingOverviewResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => ({ data: await billing.overview(userOf(request)) }),
  );

  app.post(
    billingPaths.checkout,
    {
      schema: {
        tags: ['billing'],
        summary: "Opens the provider's hosted checkout for a plan",
        security,
        body: checkoutRequestSchema,
        response: { 200: checkoutResponseSchema, ...limitedRefusals },
      },
      preHandler: limitAttempts(app, 'billingCheckout', userIdOf),
    },
    async (request) => ({
      data: await billing.startCheckout(
        userOf(request),
        request.body.plan,
        requestLanguage(request, userOf(request).language),
      ),
    }),
  );

  app.get(
    `${billingPaths.checkoutStatus}/:sessionId`,
    {
      schema: {
        tags: ['billing'],
        summary: 'Whether the checkout has been paid (from the provider, never the redirect)',
        security,
        params: checkoutStatusParamsSchema,
        response: { 200: checkoutStatusResponseSchema, 404: apiErrorSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await billing.checkoutStatus(userOf(request), request.params.sessionId),
    }),
  );

  for (const [path, cancel, summary] of [
    [billingPaths.cancel, true, 'Cancel at the end of the period'],
    [billingPaths.resume, false, 'Keep renewing after a cancellation'],
  ] as const) {
    app.post(
      path,
      {
        schema: {
          tags: ['billing'],
          summary,
          security,
          body: billingActionRequestSchema,
          response: { 200: billingOverviewResponseSchema, ...limitedRefusals },
        },
        preHandler: limitChanges,
      },
      async (request) => ({ data: await billing.setCancelAtPeriodEnd(userOf(request), cancel) }),
    );
  }

  app.post(
    billingPaths.refund,
    {
      schema: {
        tags: ['billing'],
        summary: 'The 7-day refund of the first payment (spec §1): access ends',
        security,
        body: billingActionRequestSchema,
        response: { 200: billingOverviewResponseSchema, ...limitedRefusals },
      },
      preHandler: limitChanges,
    },
    async (request) => ({ data: await billing.refund(userOf(request)) }),
  );

  app.post(
    billingPaths.portal,
    {
      schema: {
        tags: ['billing'],
        summary: "The provider's page to change the card (Stripe: the customer portal)",
        security,
        body: billingActionRequestSchema,
        response: { 200: portalResponseSchema, ...limitedRefusals },
      },
      preHandler: limitChanges,
    },
    async (request) => ({
      data: await billing.portal(
        userOf(request),
        requestLanguage(request, userOf(request).language),
      ),
    }),
  );
};

/**
 * The providers' webhooks. The signature is over the exact bytes sent, so this context keeps
 * the JSON body as text; the service verifies, then parses.
 */
async function webhookRoutes(app: FastifyInstance) {
  const { billing } = app.services;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 512 * 1024 },
    (_request, body, done) => {
      done(null, body);
    },
  );
  app.withTypeProvider<ZodTypeProvider>().post(
    `${billingPaths.webhooks}/:provider`,
    {
      schema: {
        tags: ['billing'],
        summary: "A payment provider's signed event",
        params: webhookParamsSchema,
        response: { 200: webhookResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const body = typeof request.body === 'string' ? request.body : '';
      await billing.handleWebhook(request.params.provider, body, request.headers);
      return { received: true as const };
    },
  );
}
