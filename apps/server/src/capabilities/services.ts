import type { SystemStatusService } from '../services/system-status.service';
import type { FastifyInstance } from 'fastify';
import type { AccountDeletionService } from '../services/account-deletion.service';
import type { AccountSettingsService } from '../services/account-settings.service';
import type { AccountService } from '../services/account.service';
import type { AdminAuditService } from '../services/admin-audit.service';
import type { AdminAuthService } from '../services/admin-auth.service';
import type { AdminPromoCodesService } from '../services/admin-promo-codes.service';
import type { AdminUsersService } from '../services/admin-users.service';
import type { AuthService } from '../services/auth.service';
import type { BillingService } from '../services/billing.service';
import type { BrokerSearchService } from '../services/broker-search.service';
import type { ContactService } from '../services/contact.service';
import type { CTraderLinkingService } from '../services/ctrader-linking.service';
import type { EmailChangeService } from '../services/email-change.service';
import type { EmailSubscriptionService } from '../services/email-subscription.service';
import type { GeoService } from '../services/geo.service';
import type { LinkingService } from '../services/linking.service';
import type { MoneyNoticesService } from '../services/money-notices.service';
import type { NotificationService } from '../services/notification.service';
import type { PartnerReportService } from '../services/partner-report.service';
import type { PasswordRecoveryService } from '../services/password-recovery.service';
import type { PromoCodesService } from '../services/promo-codes.service';
import type { RegistrationService } from '../services/registration.service';
import type { SignInAlertService } from '../services/sign-in-alert.service';
import type { SupportInboxService } from '../services/support-inbox.service';
import type { TrackRecordService } from '../services/track-record.service';
import type { TradingService } from '../services/trading.service';
import type { UnlinkingService } from '../services/unlinking.service';

/** The use cases the routes (and tests) reach through `app.services`, each from its capability. */
export interface Services {
  geo: GeoService;
  auth: AuthService;
  registration: RegistrationService;
  account: AccountService;
  accountSettings: AccountSettingsService;
  emailChange: EmailChangeService;
  accountDeletion: AccountDeletionService;
  passwordRecovery: PasswordRecoveryService;
  promoCodes: PromoCodesService;
  emailSubscription: EmailSubscriptionService;
  trading: TradingService;
  linking: LinkingService;
  ctraderLinking: CTraderLinkingService;
  unlinking: UnlinkingService;
  brokerSearch: BrokerSearchService;
  billing: BillingService;
  contact: ContactService;
  adminAuth: AdminAuthService;
  supportInbox: SupportInboxService;
  adminUsers: AdminUsersService;
  adminPromoCodes: AdminPromoCodesService;
  partnerReport: PartnerReportService;
  adminAudit: AdminAuditService;
  systemStatus: SystemStatusService;
  trackRecord: TrackRecordService;
  signInAlerts: SignInAlertService;
  notifications: NotificationService;
  moneyNotices: MoneyNoticesService;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Filled by the capability plugins as they register, each with its own entries; a plugin
     * reads another's entries only if it names that plugin in its `dependencies`.
     */
    services: Services;
  }
}

/** A capability adds its services (once each). */
export function provide<Name extends keyof Services>(
  app: FastifyInstance,
  entries: Pick<Services, Name>,
): void {
  for (const name of Object.keys(entries)) {
    if (name in app.services) throw new Error(`services: "${name}" is provided twice`);
  }
  Object.assign(app.services, entries);
}
