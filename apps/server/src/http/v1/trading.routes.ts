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
  robotStatusResponseSchema,
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
    v1Paths.robotStatus,
    {
      schema: {
        tags: ['trading'],
        summary: "The robot's status and what it does in each category the user chose",
        description:
          "get-all-data's `robot` alone (decision 147): on or off, why it is idle, and per " +
          'chosen category a closed market (and when it opens), a model still learning, no ' +
          'edge (its best forecast against what it needs) or trading, with when it last ' +
          'evaluated a price. The dashboard reads it every few seconds.',
        security: [{ bearer: [] }],
        response: { 200: robotStatusResponseSchema, ...refusals },
      },
    },
    async (request) => ({ data: await trading.robotStatusFor(userOf(request)) }),
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
        summary: 'The closed operations of a period, as CSV for a spreadsheet',
        description:
          "For a person's spreadsheet (decision 154): UTF-8 with a byte order mark, `;` " +
          'between fields, a decimal comma, one header row, oldest first. Headers and words ' +
          "(direction, closing reason) are in `language` (the account's when absent); times " +
          'are "YYYY-MM-DD hh:mm:ss" in `time_zone` (UTC when absent), named in the headers. ' +
          'Columns: opening and closing time, asset, symbol, direction, lots, units, opening ' +
          'and closing price, take-profit, stop-loss, closing reason, result (two decimals) ' +
          'and its currency (ISO 4217; empty for a former broker link, decision 097), and the ' +
          'market the prices came from (decision 140). The ' +
          'machine-readable copy is the data export (decision 153).',
        security: [{ bearer: [] }],
        querystring: historyCsvQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...refusals },
      },
    },
    async (request, reply) => {
      const { period, language, time_zone: timeZone } = request.query;
      const { fileName, csv } = await trading.historyCsv(userOf(request), period, {
        language,
        timeZone,
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
};
