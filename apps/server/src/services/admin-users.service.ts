import type { AdminUserDetail, AdminUserSummary } from '@tradebot/contract';
import { AppError } from '../http/errors';
import type { AdminAuditStore } from '../repositories/admin-audit.repository';
import type { AdminUsersStore, UserListing } from '../repositories/admin-users.repository';
import type { AdminRow } from '../repositories/admins.repository';
import type { Clock } from '../repositories/clock';
import type { ContactMessagesStore } from '../repositories/contact-messages.repository';
import { effectiveRobotSettings } from '../robot/drizzle-account-settings-source';
import { messageSummaryOf } from './support-inbox.service';
import type { TradingService } from './trading.service';

/** What the console reads from, and does to, a user's live account. */
export type TradingDesk = Pick<
  TradingService,
  'account' | 'openRows' | 'newestClosedRows' | 'robotStatus' | 'kill'
>;

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

/** The console's view of users: find one, see their state, stop their robot. */
export class AdminUsersService {
  constructor(
    private readonly users: AdminUsersStore,
    private readonly messages: ContactMessagesStore,
    private readonly trading: TradingDesk,
    private readonly audit: AdminAuditStore,
    private readonly clock: Clock,
  ) {}

  async search(query: string): Promise<{ users: AdminUserSummary[]; more: boolean }> {
    const found = await this.users.search(query, searchLimit + 1);
    return { users: found.slice(0, searchLimit).map(summaryOf), more: found.length > searchLimit };
  }

  private async listing(userId: string): Promise<UserListing> {
    const listing = await this.users.find(userId);
    if (!listing) throw new AppError('NOT_FOUND');
    return listing;
  }

  async detail(userId: string): Promise<AdminUserDetail> {
    const listing = await this.listing(userId);
    const { user, settings } = listing;
    const now = this.clock.now();
    const [account, openOperations, recentClosed, messages] = await Promise.all([
      this.trading.account(userId),
      this.trading.openRows(userId),
      this.trading.newestClosedRows(userId, recentClosedCount),
      this.messages.ofUser(userId, recentMessagesCount),
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
      robot: await this.trading.robotStatus(settings),
      account,
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
    if (!settings.authorized || !settings.linked) {
      throw new AppError('CONFLICT', { key: 'admin.userNotTrading' });
    }
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
}
