import {
  apiErrorSchema,
  equityCurveQuerySchema,
  equityCurveResponseSchema,
  getAllDataQuerySchema,
  getAllDataResponseSchema,
  historyCsvQuerySchema,
  killSwitchResponseSchema,
  orderRejectionsQuerySchema,
  orderRejectionsResponseSchema,
  settingsRequestSchema,
  settingsResponseSchema,
  untradableSymbolsResponseSchema,
  v1Paths,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser, userOf } from '../authenticate';

const refusals = { 401: apiErrorSchema, 403: apiErrorSchema, 422: apiErrorSchema };

/** The live account (spec §7 get-all-data and settings; the user's kill switch). */
export const tradingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { trading } = app.services;
  // Before validation: a request without a valid token is a 401 whatever its body.
  app.addHook('onRequest', requireUser(app));

  app.get(
    '/get-all-data',
    {
      schema: {
        tags: ['trading'],
        summary: 'The live account: figures, open operations, a page of the history, the robot',
        security: [{ bearer: [] }],
        querystring: getAllDataQuerySchema,
        response: { 200: getAllDataResponseSchema, ...refusals },
      },
    },
    async (request) => ({ data: await trading.tradingData(userOf(request), request.query) }),
  );

  app.get(
    v1Paths.orderRejections,
    {
      schema: {
        tags: ['trading'],
        summary: "The account's refused orders, newest first, with their reason",
        description:
          'Orders the platform or the broker refused (decision 101): when the robot decided ' +
          'each, the instrument, the side, our reason and the broker code when the broker ' +
          'gave one. Paged like the closed history: `limit`, then `before` = `nextCursor`.',
        security: [{ bearer: [] }],
        querystring: orderRejectionsQuerySchema,
        response: { 200: orderRejectionsResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await trading.orderRejections(userOf(request), request.query),
    }),
  );

  app.get(
    v1Paths.untradableSymbols,
    {
      schema: {
        tags: ['trading'],
        summary: "A linked broker account's symbols the robot does not trade, and why",
        security: [{ bearer: [] }],
        response: { 200: untradableSymbolsResponseSchema, ...refusals },
      },
    },
    async (request) => ({ data: await trading.untradableSymbols(userOf(request)) }),
  );

  app.post(
    '/settings',
    {
      schema: {
        tags: ['trading'],
        summary: "The robot's settings: stored and applied at once",
        security: [{ bearer: [] }],
        body: settingsRequestSchema,
        response: { 200: settingsResponseSchema, ...refusals },
      },
    },
    async (request) => ({ data: await trading.updateSettings(userOf(request), request.body) }),
  );

  app.post(
    '/robot/kill',
    {
      schema: {
        tags: ['trading'],
        summary: 'Kill switch: the robot goes off and every open operation closes',
        security: [{ bearer: [] }],
        response: { 200: killSwitchResponseSchema, 503: apiErrorSchema, ...refusals },
      },
    },
    async (request) => ({ data: await trading.kill(userOf(request)) }),
  );

  app.get(
    '/equity-curve',
    {
      schema: {
        tags: ['trading'],
        summary: 'Balance after each closed operation, then the equity now',
        security: [{ bearer: [] }],
        querystring: equityCurveQuerySchema,
        response: { 200: equityCurveResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: { points: await trading.equityCurve(userOf(request), request.query.period) },
    }),
  );

  app.get(
    '/history-csv',
    {
      schema: {
        tags: ['trading'],
        summary: 'The closed operations of a period, as CSV',
        description:
          'UTF-8, comma-separated, one header row, oldest first. The headers are these field ' +
          'names, the same in every language (decision 075): open_time, close_time (ISO 8601, ' +
          'UTC), asset, symbol, direction (buy or sell), amount_lots, units, open_price, ' +
          'close_price, take_profit, stop_loss, close_reason (tp, sl, closeout or kill), ' +
          'profit (two decimals, a point as the decimal separator), currency (ISO 4217 code of ' +
          'the profit: USD on the simulated platform, the broker account currency otherwise; ' +
          'empty for a former broker link, decision 097).',
        security: [{ bearer: [] }],
        querystring: historyCsvQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...refusals },
      },
    },
    async (request, reply) => {
      const { period } = request.query;
      const csv = await trading.historyCsv(userOf(request), period);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="operations-${period}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
};
