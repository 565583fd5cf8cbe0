import {
  apiErrorSchema,
  forgotPasswordRequestSchema,
  forgotPasswordResponseSchema,
  loginRequestSchema,
  logoutResponseSchema,
  type LoginRequest,
  registerRequestSchema,
  registerResponseSchema,
  confirmRegistrationRequestSchema,
  confirmRegistrationResponseSchema,
  setPasswordRequestSchema,
  setPasswordResponseSchema,
  tokenResponseSchema,
} from '@tradebot/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../authenticate';
import { requestLanguage } from '../language';
import { isAttackOnAccount, limitAttempts, limitSignIns } from '../rate-limits';
import { SignInLinkInvalid } from '../../services/auth.errors';

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
  const { auth, registration, passwordRecovery, geo, signInAlerts } = app.services;

  app.post(
    '/login',
    {
      ...limitSignIns(
        app,
        'login',
        emailOf,
        (refusal) => {
          // The owner hears of it by e-mail, after the answer (decision 079).
          if (isAttackOnAccount(refusal)) signInAlerts.signInsRefused('user', refusal.account);
        },
        // The alert's one-time link passes the account's limits (decision 130).
        async (request, account) => {
          const { signInToken } = request.body as LoginRequest;
          if (signInToken === undefined) return 'none';
          return (await auth.signInLinkUsable(signInToken, account))
            ? 'usable'
            : { refusal: new SignInLinkInvalid() };
        },
      ),
      schema: {
        tags: ['accounts'],
        summary: 'Sign in; answers a bearer token (30 days with rememberMe, else 24 h)',
        description:
          "With `signInToken`, the one-time link of a sign-in alert e-mail: the account's " +
          "sign-in limits do not apply (the address's do), the password is still needed, and " +
          'the link is used up by the sign-in. An unknown, used or expired link is a 404.',
        body: loginRequestSchema,
        response: { 200: tokenResponseSchema, 404: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      const userAgent = request.headers['user-agent'];
      const { token, userId } = await auth.login(request.body, userAgent);
      // A device the owner has not used lately is told by e-mail, after the answer (decision 163).
      signInAlerts.signedIn(userId, userAgent ?? null);
      return { data: { token } };
    },
  );

  app.post(
    '/register',
    {
      preHandler: limitAttempts(app, 'register', emailOf),
      schema: {
        tags: ['accounts'],
        summary: 'Ask for an account: a confirmation link is e-mailed (decision 085)',
        description:
          'Answers 202 the same whether or not the e-mail already has an account (that owner ' +
          'is told by e-mail instead). Refused from UY (403); an unusable promo code is a 422. ' +
          'The nonce lets this browser confirm with one click.',
        body: registerRequestSchema,
        response: { 202: registerResponseSchema, 403: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { nonce } = await registration.request(request.body, {
        countryCode: geo.countryCodeOf(request.ip),
        language: requestLanguage(request),
        ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
      });
      return reply.status(202).send({ data: { sent: true as const, nonce } });
    },
  );

  app.post(
    '/register/confirm',
    {
      preHandler: limitAttempts(app, 'registerConfirm'),
      schema: {
        tags: ['accounts'],
        summary: 'Create the account a confirmation link stands for, and sign in',
        description:
          'With the nonce of the browser that registered, or the password chosen (422 without ' +
          'or with a wrong one). An unknown, used or expired link is a 404; an address that got ' +
          'its account meanwhile, a 409.',
        body: confirmRegistrationRequestSchema,
        response: {
          201: confirmRegistrationResponseSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const confirmed = await registration.confirm(request.body, request.headers['user-agent']);
      return reply.status(201).send({ data: confirmed });
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
