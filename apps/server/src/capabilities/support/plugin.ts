import { apiV1Prefix } from '@tradebot/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { supportInbox } from '../../config';
import { adminConsoleRoutes } from '../../http/v1/admin-console.routes';
import { adminSessionRoutes } from '../../http/v1/admin-session.routes';
import { contactRoutes } from '../../http/v1/contact.routes';
import { AdminAuditRepository } from '../../repositories/admin-audit.repository';
import { AdminPromoCodesRepository } from '../../repositories/admin-promo-codes.repository';
import { AdminUsersRepository } from '../../repositories/admin-users.repository';
import { AdminSessionsRepository, AdminsRepository } from '../../repositories/admins.repository';
import { ContactMessagesRepository } from '../../repositories/contact-messages.repository';
import { RobotProcessesRepository } from '../../repositories/robot-processes.repository';
import { PartnerReportRepository } from '../../repositories/partner-report.repository';
import { argon2PasswordHasher } from '../../repositories/password-hasher';
import { adminTotpKeyFile } from '../../repositories/totp-secret-sealer';
import { otplibTotp } from '../../repositories/totp';
import { AdminAuditService } from '../../services/admin-audit.service';
import { AdminAuthService } from '../../services/admin-auth.service';
import { AdminPromoCodesService } from '../../services/admin-promo-codes.service';
import { AdminUsersService } from '../../services/admin-users.service';
import { ContactService } from '../../services/contact.service';
import { PartnerReportService } from '../../services/partner-report.service';
import { SupportInboxService } from '../../services/support-inbox.service';
import { SystemStatusService } from '../../services/system-status.service';
import { provide } from '../services';

/** How often a robot process stores its report for the system page (scaled mode). */
const systemReportEveryMs = 15_000;

/**
 * The contact form and the support console: admins' sign-in (with TOTP), the inbox, users,
 * promotional codes, the partner report, the audit trail and the system page.
 */
export const support = fp(
  async (app: FastifyInstance) => {
    const { config, database, mailer, clock, transact, links } = app;
    const { db } = database;
    const { auth, trading, billing } = app.services;
    const onMailFailure = (error: unknown) => {
      app.log.error({ err: error }, 'sending e-mail failed');
    };
    const contactMessages = new ContactMessagesRepository(db);
    const audit = new AdminAuditRepository(db);
    const adminAuth = new AdminAuthService(
      new AdminsRepository(db),
      new AdminSessionsRepository(db),
      audit,
      argon2PasswordHasher,
      app.secrets,
      otplibTotp,
      app.keys.totp,
      clock,
      async (token) => (await auth.authenticate(token)) !== undefined,
    );
    const systemStatus = new SystemStatusService(new RobotProcessesRepository(db), {
      owner: app.owner,
      mode: config.ROBOT_LEASES ? 'scaled' : 'embedded',
      robot: app.robot,
      recentErrors: app.recentErrors,
      now: () => clock.now().getTime(),
    });
    provide(app, {
      adminAuth,
      contact: new ContactService(
        contactMessages,
        mailer,
        clock,
        {
          email: supportInbox(config),
          calendar: {
            timeZone: config.SUPPORT_TIME_ZONE,
            holidays: new Set(config.SUPPORT_HOLIDAYS),
          },
          consoleUrl: (id) => links.at(`/admin/messages/${id}`),
        },
        onMailFailure,
      ),
      supportInbox: new SupportInboxService(
        contactMessages,
        audit,
        mailer,
        clock,
        transact,
        onMailFailure,
      ),
      adminUsers: new AdminUsersService(
        new AdminUsersRepository(db),
        contactMessages,
        trading,
        billing,
        app.billingStore,
        audit,
        clock,
      ),
      adminPromoCodes: new AdminPromoCodesService(
        new AdminPromoCodesRepository(db),
        audit,
        clock,
        transact,
      ),
      partnerReport: new PartnerReportService(
        new PartnerReportRepository(db),
        audit,
        clock,
        config.SUPPORT_TIME_ZONE,
      ),
      adminAudit: new AdminAuditService(audit),
      systemStatus,
    });
    // Scaled, each robot process stores its figures for the others' system page (decision 160).
    if (config.ROBOT_LEASES && app.robot) {
      app.jobs.add({
        name: 'system-report',
        everyMs: systemReportEveryMs,
        run: () => systemStatus.publish(),
        failure: 'system page: storing this process’s report failed',
      });
    }
    if (config.DATABASE_URL && !config.ADMIN_TOTP_KEYS) {
      app.log.warn(
        { file: adminTotpKeyFile(config.dataDir) },
        'ADMIN_TOTP_KEYS is unset: admins’ TOTP secrets are sealed with a key kept in DATA_DIR; ' +
          'every process sharing this database needs the same key',
      );
    }
    // TOTP secrets in clear (before decision 059) or under an older key: sealed with the newest.
    const resealed = await adminAuth.sealTotpSecrets();
    if (resealed > 0) {
      app.log.info({ admins: resealed }, 'admin TOTP secrets sealed with the newest key');
    }
    await app.register(
      async (v1) => {
        await v1.register(contactRoutes);
        await v1.register(adminSessionRoutes);
        await v1.register(adminConsoleRoutes);
      },
      { prefix: apiV1Prefix },
    );
  },
  {
    name: 'support',
    dependencies: ['foundation', 'http', 'robot', 'accounts', 'trading', 'billing'],
  },
);
