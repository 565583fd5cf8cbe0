import { createHash } from 'node:crypto';
import {
  adminLoginRequestSchema,
  adminLoginResponseSchema,
  adminLogoutResponseSchema,
  adminSecondFactorRequestSchema,
  adminSessionResponseSchema,
  apiErrorSchema,
  supportApiPaths,
} from '@tradebot/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminOf, requireAdmin } from '../authenticate-admin';
import { adminProfileOf } from '../../services/admin-auth.service';
import { bearerToken } from '../authenticate';
import { AppError } from '../errors';
import { isAttackOnAccount, limitAttempts, limitSignIns } from '../rate-limits';

const refusals = {
  401: apiErrorSchema,
  403: apiErrorSchema,
  422: apiErrorSchema,
  429: apiErrorSchema,
};

/** The console's sign-in: a password, then a TOTP code (docs/decisions/057). */
export const adminSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { adminAuth, signInAlerts } = app.services;

  app.post(
    supportApiPaths.adminLogin,
    {
      ...limitSignIns(
        app,
        'adminLogin',
        (request) => {
          const { email } = request.body as { email?: unknown };
          return typeof email === 'string' ? email : undefined;
        },
        async (refusal, request) => {
          // Audited once per counter and window, not per refused request (decision 079).
          if (!refusal.account || !refusal.first) return;
          if (isAttackOnAccount(refusal)) signInAlerts.signInsRefused('admin', refusal.account);
          await adminAuth.signInRefused(refusal.account, request.ip);
        },
      ),
      schema: {
        tags: ['admin'],
        summary: 'First step of an admin sign-in: a token that waits for its TOTP code',
        body: adminLoginRequestSchema,
        response: { 200: adminLoginResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { token } = await adminAuth.login(
        request.body.email,
        request.body.password,
        request.ip,
      );
      return { data: { token, secondFactor: 'required' as const } };
    },
  );

  app.post(
    supportApiPaths.adminSecondFactor,
    {
      // Counted per session too, by a digest: a rate-limit key never holds a token.
      preHandler: limitAttempts(app, 'adminSecondFactor', (request) => {
        const token = bearerToken(request);
        return token ? createHash('sha256').update(token).digest('hex') : undefined;
      }),
      schema: {
        tags: ['admin'],
        summary: "Second step: the TOTP code of the admin's authenticator app",
        security: [{ bearer: [] }],
        body: adminSecondFactorRequestSchema,
        response: { 200: adminSessionResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const token = bearerToken(request);
      if (!token) throw new AppError('UNAUTHENTICATED');
      return { data: await adminAuth.secondFactor(token, request.body.code, request.ip) };
    },
  );

  app.get(
    supportApiPaths.adminMe,
    {
      onRequest: requireAdmin(app),
      schema: {
        tags: ['admin'],
        summary: 'The signed-in admin and when the session ends',
        security: [{ bearer: [] }],
        response: { 200: adminSessionResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { row, expiresAt } = adminOf(request);
      return { data: { admin: adminProfileOf(row), expiresAt: expiresAt.toISOString() } };
    },
  );

  app.post(
    supportApiPaths.adminLogout,
    {
      onRequest: requireAdmin(app),
      schema: {
        tags: ['admin'],
        summary: 'End this admin session',
        security: [{ bearer: [] }],
        response: { 200: adminLogoutResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { row, sessionId } = adminOf(request);
      await adminAuth.logout(row, sessionId);
      return { data: { loggedOut: true as const } };
    },
  );
};
