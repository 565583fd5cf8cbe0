import {
  apiErrorSchema,
  forgotPasswordRequestSchema,
  forgotPasswordResponseSchema,
  loginRequestSchema,
  logoutResponseSchema,
  registerRequestSchema,
  setPasswordRequestSchema,
  setPasswordResponseSchema,
  tokenResponseSchema,
} from '@tradebot/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../authenticate';
import { requestLanguage } from '../language';
import { limitAttempts, limitSignIns } from '../rate-limits';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  422: apiErrorSchema,
  429: apiErrorSchema,
};

/** The account a request speaks of: its validated e-mail. */
function emailOf(request: FastifyRequest): string | undefined {
  const { email } = request.body as { email?: unknown };
  return typeof email === 'string' ? email : undefined;
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, passwordRecovery, geo } = app.services;

  app.post(
    '/login',
    {
      ...limitSignIns(app, 'login', emailOf),
      schema: {
        tags: ['accounts'],
        summary: 'Sign in; answers a bearer token (30 days with rememberMe, else 24 h)',
        body: loginRequestSchema,
        response: { 200: tokenResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await auth.login(request.body, request.headers['user-agent']) }),
  );

  app.post(
    '/register',
    {
      preHandler: limitAttempts(app, 'register'),
      schema: {
        tags: ['accounts'],
        summary: 'Create an account and sign in',
        description: 'Refused from UY (403). A duplicate e-mail, in any case, is a 409.',
        body: registerRequestSchema,
        response: { 201: tokenResponseSchema, 403: apiErrorSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await auth.register(request.body, {
        countryCode: geo.countryCodeOf(request.ip),
        language: requestLanguage(request),
        ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
      });
      return reply.status(201).send({ data: session });
    },
  );

  app.post(
    '/logout',
    {
      preHandler: requireUser(app),
      schema: {
        tags: ['accounts'],
        summary: 'Revoke this session token',
        security: [{ bearer: [] }],
        response: { 200: logoutResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      if (request.sessionId) await auth.logout(request.sessionId);
      return { data: { loggedOut: true as const } };
    },
  );

  app.post(
    '/forgot-password',
    {
      preHandler: limitAttempts(app, 'forgotPassword', emailOf),
      schema: {
        tags: ['accounts'],
        summary: 'E-mail a six-digit recovery code',
        description: 'Answers the same whether or not the e-mail has an account.',
        body: forgotPasswordRequestSchema,
        response: { 200: forgotPasswordResponseSchema, ...errors },
      },
    },
    async (request) => {
      passwordRecovery.requestCode(request.body.email, requestLanguage(request));
      return { data: { sent: true as const } };
    },
  );

  app.post(
    '/set-password',
    {
      preHandler: limitAttempts(app, 'setPassword', emailOf),
      schema: {
        tags: ['accounts'],
        summary: 'Set a new password with a recovery code; ends every session',
        body: setPasswordRequestSchema,
        response: { 200: setPasswordResponseSchema, ...errors },
      },
    },
    async (request) => {
      await passwordRecovery.setPassword(request.body);
      return { data: { changed: true as const } };
    },
  );
};
