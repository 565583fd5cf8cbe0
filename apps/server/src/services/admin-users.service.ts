import type {
  AdminGuarantee,
  AdminSubscription,
  AdminUserDetail,
  AdminUserSummary,
} from '@tradebot/contract';
import type { AdminAuditStore } from '../repositories/admin-audit.repository';
import type { AdminUsersStore, UserListing } from '../repositories/admin-users.repository';
import type { AdminRow } from '../repositories/admins.repository';
import type { BillingStore, PaymentRow, SubscriptionRow } from '../repositories/billing.repository';
import type { Clock } from '../repositories/clock';
import type { ContactMessagesStore } from '../repositories/contact-messages.repository';
import { effectiveRobotSettings } from '../domain/robot-settings';
import type { BillingService } from './billing.service';
import { currentSubscription } from './billing-rules';
import { KeyedQueue } from './keyed-queue';
import { messageSummaryOf } from './support-inbox.service';
import type { TradingService } from './trading.service';
import {
  AdminUserNotFound,
  UserNotTrading,
  GuaranteeNoPayment,
  GuaranteeExpired,
  GuaranteeRefunded,
} from './admin-users.errors';

/** What the console reads from, and does to, a user's live account. */
export type TradingDesk = Pick<
  TradingService,
  'account' | 'accountCurrency' | 'openRows' | 'newestClosedRows' | 'robotStatus' | 'kill'
>;

/** The 30-day guarantee, as billing answers and honours it (decision 048). */
export type GuaranteeDesk = Pick<BillingService, 'guaranteeEligibility' | 'honourGuarantee'>;

/** What the console reads of a user's billing. */
export type BillingRecords = Pick<BillingStore, 'subscriptionsOf' | 'firstPayment'>;

const searchLimit = 25;
const recentClosedCount = 20;
const recentMessagesCount = 20;

function summaryOf({ user, settings }: UserListing): AdminUserSummary {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    last_name: user.lastName,
    createdAt: user.createdAt.toISOString(),
    authorized: settings.authorized,
    linked: settings.linked,
    bot_on: settings.botOn,
  };
}

function subscriptionOf(row: SubscriptionRow | undefined): AdminSubscription | null {
  if (!row) return null;
  return {
    plan: row.plan,
    status: row.status,
    freeMonth: row.provider === 'promo',
    accessUntil: row.accessUntil?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

/**
 * Why the guarantee cannot be honoured, read from billing's own answer: no payment gives no
 * date; a date still ahead with no eligibility means the payment was refunded.
 */
function guaranteeOf(answer: { eligible: boolean; until: Date | null }, now: Date): AdminGuarantee {
  const until = answer.until?.toISOString() ?? null;
  if (answer.eligible) return { eligible: true, until, reason: null };
  if (answer.until === null) return { eligible: false, until, reason: 'no_payment' };
  return {
    eligible: false,
    until,
    reason: answer.until.getTime() > now.getTime() ? 'refunded' : 'expired',
  };
}

const guaranteeRefusals = {
  no_payment: GuaranteeNoPayment,
  expired: GuaranteeExpired,
  refunded: GuaranteeRefunded,
} as const;

/** The audit log's before and after of a refund: the user's subscription state. */
async function billingState(
  records: BillingRecords,
  userId: string,
  authorized: boolean,
  now: Date,
) {
  const [subscriptions, first] = await Promise.all([
    records.subscriptionsOf(userId),
    records.firstPayment(userId),
  ]);
  return {
    authorized,
    subscription: subscriptionOf(currentSubscription(subscriptions, now)),
    firstPayment: first ? firstPaymentOf(first) : null,
  };
}

function firstPaymentOf(row: PaymentRow) {
  return {
    amountCents: row.amountCents,
    currency: row.currency,
    paidAt: row.paidAt.toISOString(),
    refundedAt: row.refundedAt?.toISOString() ?? null,
  };
}

/** The console's view of users: find one, see their state, stop their robot, refund them. */
export class AdminUsersService {
  /** One refund at a time per user: two admins clicking together refund once. */
  private readonly refunds = new KeyedQueue();

  constructor(
    private readonly users: AdminUsersStore,
    private readonly messages: ContactMessagesStore,
    private readonly trading: TradingDesk,
    private readonly billing: GuaranteeDesk,
    private readonly billingRecords: BillingRecords,
    private readonly audit: AdminAuditStore,
    private readonly clock: Clock,
  ) {}

  async search(query: string): Promise<{ users: AdminUserSummary[]; more: boolean }> {
    const found = await this.users.search(query, searchLimit + 1);
    return { users: found.slice(0, searchLimit).map(summaryOf), more: found.length > searchLimit };
  }

  private async listing(userId: string): Promise<UserListing> {
    const listing = await this.users.find(userId);
    if (!listing) throw new AdminUserNotFound();
    return listing;
  }

  /**
   * A user's page, as `admin` opens it: the read is audited (`user.viewed`, decision 117), once
   * the user is found and before anything is shown.
   */
  async detail(admin: AdminRow, userId: string): Promise<AdminUserDetail> {
    const listing = await this.listing(userId);
    await this.audit.record(
      {
        adminId: admin.id,
        action: 'user.viewed',
        targetType: 'user',
        targetId: userId,
        before: null,
        after: null,
      },
      this.clock.now(),
    );
    return this.page(listing);
  }

  private async page(listing: UserListing): Promise<AdminUserDetail> {
    const userId = listing.user.id;
    const { user, settings } = listing;
    const now = this.clock.now();
    const [account, accountCurrency, openOperations, recentClosed, messages, billing, guarantee] =
      await Promise.all([
        this.trading.account(userId),
        this.trading.accountCurrency(userId),
        this.trading.openRows(userId),
        this.trading.newestClosedRows(userId, recentClosedCount),
        this.messages.ofUser(userId, recentMessagesCount),
        billingState(this.billingRecords, userId, settings.authorized, now),
        this.billing.guaranteeEligibility(userId),
      ]);
    return {
      user: {
        ...summaryOf(listing),
        phone: user.phone,
        language: user.language,
        subscribed_newsletter: user.subscribedNewsletter,
        partner_id: user.partnerId,
        client_source: user.clientSource,
        referral: user.referral,
        promocode: user.promocode,
      },
      settings: {
        login_tradear: settings.loginTradear,
        risk: settings.risk,
        categories_enabled: effectiveRobotSettings(settings).categories_enabled,
      },
      subscription: billing.subscription,
      firstPayment: billing.firstPayment,
      guarantee: guaranteeOf(guarantee, now),
      robot: await this.trading.robotStatus(settings),
      account,
      accountCurrency,
      openOperations,
      recentClosed,
      messages: messages.map((message) => {
        const { user: _author, ...summary } = messageSummaryOf(message, now);
        return summary;
      }),
    };
  }

  /**
   * The user's kill switch, pulled by support (TradingService.kill): the robot goes off and
   * every open operation closes at the market.
   */
  async killRobot(admin: AdminRow, userId: string): Promise<{ bot_on: false; closed: number }> {
    const { user, settings } = await this.listing(userId);
    // Whatever the billing state: a user whose access ended may still have operations open.
    if (!settings.linked) throw new UserNotTrading();
    const openBefore = (await this.trading.openRows(userId)).length;
    const result = await this.trading.kill(user);
    await this.audit.record(
      {
        adminId: admin.id,
        action: 'robot.killed',
        targetType: 'user',
        targetId: userId,
        before: { bot_on: settings.botOn, openOperations: openBefore },
        after: { bot_on: result.settings.bot_on, closed: result.closed },
      },
      this.clock.now(),
    );
    return { bot_on: false, closed: result.closed };
  }

  /**
   * Honours the 30-day money guarantee (decision 048) for a user who claimed it through
   * customer service: billing refunds the first payment at the provider, ends access (the
   * robot opens nothing more) and e-mails the user. The provider is not part of our
   * transaction, so the audit log is written on both sides of it: `guarantee.refund_requested`
   * (who, and the state before) before billing calls the provider, `guarantee.refunded` once it
   * has. A crash or a provider failure in between leaves the request, never a refund nobody is
   * named for.
   */
  async refundGuarantee(admin: AdminRow, userId: string): Promise<AdminUserDetail> {
    await this.refunds.run(userId, async () => {
      const { settings } = await this.listing(userId);
      const now = this.clock.now();
      const guarantee = guaranteeOf(await this.billing.guaranteeEligibility(userId), now);
      if (guarantee.reason) throw new guaranteeRefusals[guarantee.reason]();
      const before = {
        ...(await billingState(this.billingRecords, userId, settings.authorized, now)),
        guaranteeUntil: guarantee.until,
      };
      await this.audit.record(
        {
          adminId: admin.id,
          action: 'guarantee.refund_requested',
          targetType: 'user',
          targetId: userId,
          before,
          after: null,
        },
        now,
      );
      await this.billing.honourGuarantee(userId);
      const after = await this.listing(userId);
      const done = this.clock.now();
      await this.audit.record(
        {
          adminId: admin.id,
          action: 'guarantee.refunded',
          targetType: 'user',
          targetId: userId,
          before,
          after: await billingState(this.billingRecords, userId, after.settings.authorized, done),
        },
        done,
      );
    });
    // The page the console shows after the refund: part of the audited action, not a read of its own.
    return this.page(await this.listing(userId));
  }
}
