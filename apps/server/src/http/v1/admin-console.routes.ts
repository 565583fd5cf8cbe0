import {
  adminAuditQuerySchema,
  adminAuditResponseSchema,
  adminCreatePromoCodeRequestSchema,
  adminGuaranteeRefundResponseSchema,
  adminIdParamsSchema,
  adminKillResponseSchema,
  adminMessageResponseSchema,
  adminMessagesQuerySchema,
  adminMessagesResponseSchema,
  adminMessageStatusRequestSchema,
  adminPromoCodeParamsSchema,
  adminPromoCodeResponseSchema,
  adminPromoCodesResponseSchema,
  adminPromoCodeUsesResponseSchema,
  adminReplyRequestSchema,
  adminSystemResponseSchema,
  adminUserResponseSchema,
  adminUserSearchQuerySchema,
  adminUserSearchResponseSchema,
  apiErrorSchema,
  partnerReportQuerySchema,
  partnerReportResponseSchema,
  supportApiPaths as paths,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminOf, requireAdmin } from '../authenticate-admin';

const refusals = {
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  422: apiErrorSchema,
  503: apiErrorSchema,
};
const consoleRoute = { tags: ['admin'], security: [{ bearer: [] }] };

/**
 * The support console (docs/decisions/057): inbox, users, promo codes, partner report and
 * audit log. Every route needs an admin session with its second factor; every action, and
 * every read of a user's page or a message thread (decision 117), is audited by its service.
 */
export const adminConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { supportInbox, adminUsers, adminPromoCodes, partnerReport, adminAudit, systemStatus } =
    app.services;
  // Before validation: who asks decides first (401, 403), whatever the request says.
  app.addHook('onRequest', requireAdmin(app));
  const admin = (request: Parameters<typeof adminOf>[0]) => adminOf(request).row;

  app.get(
    paths.adminMessages,
    {
      schema: {
        ...consoleRoute,
        summary: 'Contact messages by status; open ones by due time, overdue counted',
        querystring: adminMessagesQuerySchema,
        response: { 200: adminMessagesResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await supportInbox.page(request.query.status, request.query.offset),
    }),
  );

  app.get(
    paths.adminMessage,
    {
      schema: {
        ...consoleRoute,
        summary: 'A message with its thread of replies',
        params: adminIdParamsSchema,
        response: { 200: adminMessageResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await supportInbox.detail(admin(request), request.params.id),
    }),
  );

  app.post(
    paths.adminMessageReplies,
    {
      schema: {
        ...consoleRoute,
        summary: 'Reply to a message: kept in its thread and e-mailed to the user',
        params: adminIdParamsSchema,
        body: adminReplyRequestSchema,
        response: { 201: adminMessageResponseSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const detail = await supportInbox.reply(admin(request), request.params.id, request.body.body);
      return reply.status(201).send({ data: detail });
    },
  );

  app.put(
    paths.adminMessageStatus,
    {
      schema: {
        ...consoleRoute,
        summary: 'Close a message without a reply, or open it again',
        params: adminIdParamsSchema,
        body: adminMessageStatusRequestSchema,
        response: { 200: adminMessageResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await supportInbox.setStatus(admin(request), request.params.id, request.body.status),
    }),
  );

  app.get(
    paths.adminUsers,
    {
      schema: {
        ...consoleRoute,
        summary: 'Users whose e-mail or name contains the text',
        querystring: adminUserSearchQuerySchema,
        response: { 200: adminUserSearchResponseSchema, ...refusals },
      },
    },
    async (request) => ({ data: await adminUsers.search(request.query.q) }),
  );

  app.get(
    paths.adminUser,
    {
      schema: {
        ...consoleRoute,
        summary: 'A user: tracking, subscription state, robot, account, operations, messages',
        params: adminIdParamsSchema,
        response: { 200: adminUserResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await adminUsers.detail(admin(request), request.params.id),
    }),
  );

  app.post(
    paths.adminUserRobotKill,
    {
      schema: {
        ...consoleRoute,
        summary: "Pull the user's kill switch: robot off, every open operation closed",
        params: adminIdParamsSchema,
        response: { 200: adminKillResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await adminUsers.killRobot(admin(request), request.params.id),
    }),
  );

  app.post(
    paths.adminUserGuaranteeRefund,
    {
      schema: {
        ...consoleRoute,
        summary:
          "Honour the 30-day guarantee: the user's first payment refunded in full, access ended",
        params: adminIdParamsSchema,
        response: { 200: adminGuaranteeRefundResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await adminUsers.refundGuarantee(admin(request), request.params.id),
    }),
  );

  app.get(
    paths.adminPromoCodes,
    {
      schema: {
        ...consoleRoute,
        summary: 'Every promotional code with its state and uses',
        response: { 200: adminPromoCodesResponseSchema, ...refusals },
      },
    },
    async () => ({ data: { promoCodes: await adminPromoCodes.list() } }),
  );

  app.post(
    paths.adminPromoCodes,
    {
      schema: {
        ...consoleRoute,
        summary: 'Create a promotional code',
        body: adminCreatePromoCodeRequestSchema,
        response: { 201: adminPromoCodeResponseSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { code, benefit, validFrom, validUntil, maxUses } = request.body;
      const created = await adminPromoCodes.create(admin(request), {
        code,
        benefit,
        validFrom,
        validUntil,
        maxUses,
      });
      return reply.status(201).send({ data: created });
    },
  );

  app.post(
    paths.adminPromoCodeRetire,
    {
      schema: {
        ...consoleRoute,
        summary: 'Retire a code: its validity ends now, its past uses stay',
        params: adminPromoCodeParamsSchema,
        response: { 200: adminPromoCodeResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await adminPromoCodes.retire(admin(request), request.params.code),
    }),
  );

  app.get(
    paths.adminPromoCodeUses,
    {
      schema: {
        ...consoleRoute,
        summary: 'How many times a code was used, and the accounts that carry it',
        params: adminPromoCodeParamsSchema,
        response: { 200: adminPromoCodeUsesResponseSchema, ...refusals },
      },
    },
    async (request) => ({ data: await adminPromoCodes.uses(request.params.code) }),
  );

  app.get(
    paths.adminPartnerReport,
    {
      schema: {
        ...consoleRoute,
        summary: 'Registrations in a period by partner, source, promo code or referral pair',
        querystring: partnerReportQuerySchema,
        response: { 200: partnerReportResponseSchema, ...refusals },
      },
    },
    async (request) => ({ data: await partnerReport.report(request.query) }),
  );

  app.get(
    paths.adminPartnerReportCsv,
    {
      schema: {
        ...consoleRoute,
        summary: 'The partner report as CSV (an audited export)',
        querystring: partnerReportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...refusals },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const csv = await partnerReport.csv(admin(request), query);
      const name = `partners-${query.dimension}-${query.from}-${query.to}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.get(
    paths.adminAuditLog,
    {
      schema: {
        ...consoleRoute,
        summary: 'Every admin action, newest first: who, what, when, before and after',
        querystring: adminAuditQuerySchema,
        response: { 200: adminAuditResponseSchema, ...refusals },
      },
    },
    async (request) => ({ data: await adminAudit.page(request.query.offset) }),
  );

  app.get(
    paths.adminSystem,
    {
      schema: {
        ...consoleRoute,
        summary:
          'The processes running the robot: accounts held, tick lag, lease moves in the last hour, last errors',
        response: { 200: adminSystemResponseSchema, ...refusals },
      },
    },
    async () => ({ data: await systemStatus.status() }),
  );
};
