import { apiV1Prefix } from '@tradebot/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { shownSupportEmail } from '../../config';
import { accountSettingsRoutes } from '../../http/v1/account-settings.routes';
import { accountRoutes } from '../../http/v1/account.routes';
import { authRoutes } from '../../http/v1/auth.routes';
import { emailChangeRoutes } from '../../http/v1/email-change.routes';
import { emailSubscriptionRoutes } from '../../http/v1/email-subscription.routes';
import { promoCodesRoutes } from '../../http/v1/promo-codes.routes';
import { AccountSettingsRepository } from '../../repositories/account-settings.repository';
import { AdminsRepository } from '../../repositories/admins.repository';
import { ConsentsRepository } from '../../repositories/consents.repository';
import { EmailChangesRepository } from '../../repositories/email-changes.repository';
import { EmailSubscriptionsRepository } from '../../repositories/email-subscriptions.repository';
import { DrizzleOncePerWindow } from '../../repositories/once-per-window.repository';
import { argon2PasswordHasher } from '../../repositories/password-hasher';
import { PasswordResetRepository } from '../../repositories/password-reset.repository';
import { PromoCodesRepository } from '../../repositories/promo-codes.repository';
import { RegistrationConfirmationsRepository } from '../../repositories/registration-confirmations.repository';
import { SessionsRepository } from '../../repositories/sessions.repository';
import { SignInLinksRepository } from '../../repositories/sign-in-links.repository';
import { AccountDeletionService } from '../../services/account-deletion.service';
import { AccountSettingsService } from '../../services/account-settings.service';
import { AccountService } from '../../services/account.service';
import { AuthService, type OnSessionsRevoked } from '../../services/auth.service';
import { EmailChangeService } from '../../services/email-change.service';
import { EmailSubscriptionService } from '../../services/email-subscription.service';
import { PasswordRecoveryService } from '../../services/password-recovery.service';
import { PromoCodesService } from '../../services/promo-codes.service';
import { RegistrationService } from '../../services/registration.service';
import { SignInAlertService } from '../../services/sign-in-alert.service';
import { provide } from '../services';

/**
 * The user's account: registration, sessions and sign-in, settings, e-mail and password changes,
 * recovery, deletion, promotional codes and the newsletter. A session that ends is published
 * as `SessionsRevoked` (the session cache and the realtime gateway react).
 */
export const accounts = fp(
  async (app: FastifyInstance) => {
    const { config, database, users, mailer, clock, secrets, links, events, transact } = app;
    const { db } = database;
    const { trading, billing } = app.services;
    const hasher = argon2PasswordHasher;
    const onSessionsRevoked: OnSessionsRevoked = (revoked) =>
      events.publish('SessionsRevoked', revoked);
    const onUserChanged = (userId: string) => users.userChanged(userId);
    const onMailFailure = (error: unknown) => {
      app.log.error({ err: error }, 'sending e-mail failed');
    };
    const promoCodes = new PromoCodesRepository(db);
    const sessions = new SessionsRepository(db);
    const settingsStore = new AccountSettingsRepository(db);
    const consents = new ConsentsRepository(db);
    const accountSettings = new AccountSettingsService({
      store: settingsStore,
      sessions,
      hasher,
      mailer,
      clock,
      onSessionsRevoked,
      onUserChanged,
      forgotPasswordUrl: (language) => links.pageUrl(language, '/forgot-password'),
      onMailFailure,
    });
    const verifyPassword = accountSettings.verifyPassword.bind(accountSettings);
    const auth = new AuthService(
      users,
      sessions,
      hasher,
      secrets,
      clock,
      onSessionsRevoked,
      app.sessionCache,
      new SignInLinksRepository(db),
    );
    provide(app, {
      auth,
      accountSettings,
      account: new AccountService(users, clock, consents, transact),
      registration: new RegistrationService({
        users,
        confirmations: new RegistrationConfirmationsRepository(db),
        consents,
        promoCodes,
        hasher,
        secrets,
        mailer,
        clock,
        links: { page: links.pageUrl },
        supportEmail: shownSupportEmail(config),
        signIn: (userId, userAgent) => auth.openSession(userId, false, userAgent),
        promoBenefits: billing,
        onFailure: (error, step) => {
          app.log.error(
            { err: error, step },
            step === 'welcome'
              ? 'registration: mailing the welcome e-mail failed'
              : 'registration: storing or mailing a confirmation failed',
          );
        },
      }),
      emailChange: new EmailChangeService({
        store: new EmailChangesRepository(db),
        accountWithEmail: (email) => users.findByEmail(email),
        verifyPassword,
        secrets,
        mailer,
        clock,
        page: links.pageUrl,
        onSessionsRevoked,
        onUserChanged,
        onFailure: (error) => {
          app.log.error({ err: error }, 'email change: storing or mailing the links failed');
        },
      }),
      accountDeletion: new AccountDeletionService({
        verifyPassword,
        stopRobot: (user) => trading.stopBeforeDeletion(user),
        endSubscriptions: (userId) => billing.endSubscriptionsNow(userId),
        eraser: settingsStore,
        hasher,
        newSecret: () => secrets.newToken(),
        mailer,
        clock,
        onSessionsRevoked,
        onUserChanged,
        onMailFailure,
      }),
      passwordRecovery: new PasswordRecoveryService(
        users,
        new PasswordResetRepository(db),
        hasher,
        secrets,
        mailer,
        clock,
        (error) => {
          app.log.error({ err: error }, 'password recovery: storing or mailing a code failed');
        },
        onSessionsRevoked,
      ),
      promoCodes: new PromoCodesService(promoCodes, users, transact, clock, billing),
      emailSubscription: new EmailSubscriptionService(
        new EmailSubscriptionsRepository(db),
        promoCodes,
        mailer,
        clock,
        onMailFailure,
      ),
      // The owner of an account under attack is warned once a day (decision 079).
      signInAlerts: new SignInAlertService({
        users,
        admins: new AdminsRepository(db),
        windows: new DrizzleOncePerWindow(db, app.jobClaims.owner),
        mailer,
        sessions,
        clock,
        links: {
          forgotPassword: (language) => links.pageUrl(language, '/forgot-password'),
          settings: (language) => links.pageUrl(language, '/account-settings'),
          // The token is in the query, which the request log redacts (http/log.ts); the login
          // page moves it out of the address bar at once (decision 130).
          signIn: async (userId, language) => {
            const url = new URL(links.pageUrl(language, '/login'));
            url.searchParams.set('sign_in_token', await auth.issueSignInLink(userId));
            return url.href;
          },
          console: () => links.at('/admin'),
          contact: (language) => links.pageUrl(language, '/contact'),
          supportEmail: shownSupportEmail(config),
        },
        onSent: (accountKind, accountId) => {
          app.log.info({ accountKind, accountId }, 'sign-in alert mailed');
        },
        onError: (error) => {
          app.log.error({ err: error }, 'sign-in alert: looking up or mailing failed');
        },
      }),
    });
    // Codes requested just before closing are stored and mailed before the database closes.
    app.addHook('onClose', async () => {
      const { passwordRecovery, registration, emailChange, signInAlerts } = app.services;
      await passwordRecovery.settled();
      await registration.settled();
      await emailChange.settled();
      await signInAlerts.settled();
    });
    await app.register(
      async (v1) => {
        await v1.register(authRoutes);
        await v1.register(accountRoutes);
        await v1.register(accountSettingsRoutes);
        await v1.register(emailChangeRoutes);
        await v1.register(promoCodesRoutes);
        await v1.register(emailSubscriptionRoutes);
      },
      { prefix: apiV1Prefix },
    );
  },
  { name: 'accounts', dependencies: ['foundation', 'http', 'geo', 'trading', 'billing'] },
);
