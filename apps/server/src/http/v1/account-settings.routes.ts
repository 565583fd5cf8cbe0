import {
  accountDetailsResponseSchema,
  accountPaths,
  accountSessionsResponseSchema,
  apiErrorSchema,
  changeEmailRequestSchema,
  changeEmailResponseSchema,
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  deleteAccountRequestSchema,
  deleteAccountResponseSchema,
  sessionParamsSchema,
  sessionsSignedOutResponseSchema,
  updatePhoneRequestSchema,
  updatePhoneResponseSchema,
} from '@tradebot/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../errors';
import { requireUser, userOf } from '../authenticate';
import { limitAttempts } from '../rate-limits';

const refusals = { 401: apiErrorSchema, 422: apiErrorSchema, 429: apiErrorSchema };

function sessionOf(request: FastifyRequest): string {
  if (!request.sessionId) throw new AppError('UNAUTHENTICATED');
  return request.sessionId;
}

/** Account settings (issue 23; decision 080): details, password, phone, sessions, deletion. */
export const accountSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accountSettings, accountDeletion, emailChange } = app.services;
  app.addHook('onRequest', requireUser(app));
  const security = [{ bearer: [] }];
  const tags = ['accounts'];
  const userIdOf = (request: FastifyRequest) => userOf(request).id;
  const limitPassword = limitAttempts(app, 'accountPassword', userIdOf);
  const limitChanges = limitAttempts(app, 'accountChange', userIdOf);
  const limitEmail = limitAttempts(app, 'accountEmail', userIdOf);

  app.get(
    accountPaths.details,
    {
      schema: {
        tags,
        summary: "The user's own details: name, e-mail, phone, language",
        security,
        response: { 200: accountDetailsResponseSchema, 401: apiErrorSchema },
      },
    },
    (request) => ({ data: accountSettings.details(userOf(request)) }),
  );

  app.post(
    accountPaths.password,
    {
      schema: {
        tags,
        summary: 'Change the password (the current one required); every other session ends',
        description:
          'A wrong current password is a 422 on `current_password`. An e-mail in the account\u2019s ' +
          'language says the password changed, with a link to recover the account.',
        security,
        body: changePasswordRequestSchema,
        response: { 200: changePasswordResponseSchema, ...refusals },
      },
      preHandler: limitPassword,
    },
    async (request) => {
      const { signedOut } = await accountSettings.changePassword(
        userOf(request),
        sessionOf(request),
        request.body,
      );
      return { data: { changed: true as const, signedOut } };
    },
  );

  app.post(
    accountPaths.email,
    {
      schema: {
        tags,
        summary: 'Ask to change the e-mail address (the current password required)',
        description:
          'Answers 202 the same whether or not the new address already has an account (decision ' +
          '089): a link is mailed to a free address, and the account changes only when it is ' +
          'opened (once, within `validHours`); an address with an account is told that nothing ' +
          'changed. The current address is told at once, with a link that undoes the change and ' +
          'ends every session. A wrong password is a 422 on `current_password`; the current ' +
          'address, a 422 on `email`.',
        security,
        body: changeEmailRequestSchema,
        response: { 202: changeEmailResponseSchema, ...refusals },
      },
      preHandler: limitEmail,
    },
    async (request, reply) => {
      const { validHours } = await emailChange.request(
        userOf(request),
        sessionOf(request),
        request.body,
      );
      return reply.status(202).send({ data: { sent: true as const, validHours } });
    },
  );

  app.put(
    accountPaths.phone,
    {
      schema: {
        tags,
        summary: 'Change the phone number (an empty one removes it)',
        security,
        body: updatePhoneRequestSchema,
        response: { 200: updatePhoneResponseSchema, ...refusals },
      },
      preHandler: limitChanges,
    },
    async (request) => ({
      data: { phone: await accountSettings.updatePhone(userOf(request), request.body.phone) },
    }),
  );

  app.get(
    accountPaths.sessions,
    {
      schema: {
        tags,
        summary: 'Live sessions: when each started and was last used, its device, this one',
        security,
        response: { 200: accountSessionsResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => ({
      data: await accountSettings.sessions(userOf(request), sessionOf(request)),
    }),
  );

  app.post(
    accountPaths.signOutSession,
    {
      schema: {
        tags,
        summary: 'End another session of this user',
        description: 'This session is a 409 (log out instead); an unknown or ended one a 404.',
        security,
        params: sessionParamsSchema,
        response: {
          200: sessionsSignedOutResponseSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
          ...refusals,
        },
      },
      preHandler: limitChanges,
    },
    async (request) => {
      await accountSettings.signOutSession(userOf(request), sessionOf(request), request.params.id);
      return { data: { signedOut: 1 } };
    },
  );

  app.post(
    accountPaths.signOutOthers,
    {
      schema: {
        tags,
        summary: 'Sign out everywhere else: every session but this one ends',
        security,
        response: { 200: sessionsSignedOutResponseSchema, ...refusals },
      },
      preHandler: limitChanges,
    },
    async (request) => ({
      data: {
        signedOut: await accountSettings.signOutOthers(userOf(request), sessionOf(request)),
      },
    }),
  );

  app.post(
    accountPaths.delete,
    {
      schema: {
        tags,
        summary: 'Delete the account (password required)',
        description:
          'The robot stops and its open operations close, the subscription ends at the provider ' +
          'without refund, personal data is erased (payments kept, anonymised), every session ' +
          'ends and an e-mail confirms. A 503 leaves the account in place: ask again.',
        security,
        body: deleteAccountRequestSchema,
        response: { 200: deleteAccountResponseSchema, 503: apiErrorSchema, ...refusals },
      },
      preHandler: limitPassword,
    },
    async (request) => {
      await accountDeletion.deleteAccount(userOf(request), request.body.password);
      return { data: { deleted: true as const } };
    },
  );
};
