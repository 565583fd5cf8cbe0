import {
  categories,
  historyPeriodMs,
  historyPageSize,
  type EquityPoint,
  type HistoryPeriod,
  type OrderRejectionsPage,
  type PriceSource,
  type RobotActivity,
  type RobotHolder,
  type RobotIdleReason,
  type RobotSettingsView,
  type RealtimeInfo,
  type RobotStatus,
  type TradeRow,
  type TradingAccount,
  type TradingData,
  type UntradableSymbolsView,
} from '@tradebot/contract';
import { centsToDollars, type InstrumentCatalogue, type TradeRecord } from '@tradebot/robot';
import type { Clock } from '../repositories/clock';
import type {
  AccountLink,
  HistoryCursor,
  RejectionCursor,
  RejectionRow,
  TradingStore,
} from '../repositories/trading.repository';
import type { SettingsRow, UserRow, UsersStore } from '../repositories/users.repository';
import { effectiveRobotSettings } from '../domain/robot-settings';
import { RobotUnavailable, type RobotRuntime } from '../robot/link/robot-runtime';
import { LocalAccountCommands, type AccountCommands } from '../robot/link/account-commands';
import type { AccountProjection } from '../robot/protocol/robot-protocol';
import type { ClosedPageCache } from './closed-page-cache';
import {
  operationCurrency,
  orderRejectionOf,
  tradeRowOf,
  tradingAccountOf,
} from '../domain/trading-rows';
import { historyCsv, historyCsvFileName, type HistoryCsvFormat } from './history-csv';
import { accountLanguage } from './account-settings.service';
import {
  TradingCursorInvalid,
  TradingNotLinked,
  TradingNotAuthorized,
  RobotOnWithoutAccess,
} from './trading.errors';

/** The equity curve keeps at most this many points (a chart needs no more). */
export const equityCurveMaxPoints = 500;

export interface TradingDataQuery {
  period: HistoryPeriod;
  limit: number;
  before?: string | undefined;
}

/** Told when the user's robot stopped by their hand (decision 088: the robot-stopped notice). */
export interface RobotStopNotices {
  killSwitchPulled(userId: string, closed: number): Promise<void>;
}

/** The day's figures for the daily summary (decision 088), USD. */
export interface DayFigures {
  /** ISO 4217: the currency of the amounts below (decision 097). */
  currency: string;
  closed: number;
  won: number;
  lost: number;
  profit: number;
  balance: number;
  equity: number;
  open: number;
}

export interface SettingsChange {
  bot_on: boolean;
  risk: number;
  categories_enabled: Partial<Record<(typeof categories)[number] | 'all', boolean>>;
}

/** `closedAt:positionId` of the last row of a page: where the next page starts. */
export function encodeCursor(trade: TradeRecord): string {
  return `${String(trade.closedAt)}:${trade.positionId}`;
}

function decodeCursor(cursor: string): HistoryCursor {
  const match = /^(\d{1,15}):([\w.-]{1,100})$/.exec(cursor);
  if (!match?.[1] || !match[2]) throw new TradingCursorInvalid();
  return { closedAt: Number(match[1]), positionId: match[2] };
}

/** `decidedAt:clientOrderId` of the last refused order of a page (decision 101). */
function encodeRejectionCursor(row: RejectionRow): string {
  return `${String(row.decidedAt)}:${row.clientOrderId}`;
}

function decodeRejectionCursor(cursor: string): RejectionCursor {
  const match = /^(\d{1,15}):(.{1,250})$/.exec(cursor);
  if (!match?.[1] || !match[2]) throw new TradingCursorInvalid();
  return { decidedAt: Number(match[1]), clientOrderId: match[2] };
}

function robotSettingsView(row: SettingsRow): RobotSettingsView {
  const { categories_enabled } = effectiveRobotSettings(row);
  return { bot_on: row.botOn, risk: row.risk, categories_enabled };
}

/**
 * The live account (spec §7 get-all-data and settings, and the user's kill switch): what the
 * dashboard and the robot's settings read and steer. Figures come from the running platform;
 * history from the database.
 */
export class TradingService {
  constructor(
    private readonly users: UsersStore,
    private readonly trading: TradingStore,
    private readonly catalogue: InstrumentCatalogue,
    private readonly clock: Clock,
    /** The robot's time, epoch ms: the history's periods are measured on it. */
    private readonly robotNow: () => number,
    /** Absent when this process runs no robot (ROBOT_ENABLED=false). */
    private readonly robot: RobotRuntime | undefined,
    /** Only where operations close, with the robot (decision 045). */
    private readonly closedPages?: ClosedPageCache,
    private readonly stops?: RobotStopNotices,
    /**
     * The scaled set-up (ROBOT_LEASES, decision 092): this process's name. The status then says
     * which process holds the account, and an account another process trades is trading.
     */
    private readonly leases?: { readonly owner: string },
    /**
     * Commands for the robot trading an account (decision 105): this process's robot, or in the
     * scaled set-up the process holding the account's lease.
     */
    private readonly commands: AccountCommands = new LocalAccountCommands(robot),
  ) {}

  /**
   * Linked (spec §6): the live account is theirs to see and to stop, whatever their billing
   * state. Without access (refunded, past due, ended) the robot opens nothing new and cannot
   * be turned on, but the user still reads their operations and closes them all (issue 18;
   * docs/decisions/063-open-operations-when-access-ends.md).
   */
  private async requireLinked(user: UserRow): Promise<SettingsRow> {
    const settings = await this.users.findSettings(user.id);
    if (!settings) throw new Error(`user ${user.id} has no settings row`);
    if (!settings.linked) {
      throw settings.authorized ? new TradingNotLinked() : new TradingNotAuthorized();
    }
    return settings;
  }

  private since(period: HistoryPeriod): number | undefined {
    return period === 'all' ? undefined : this.robotNow() - historyPeriodMs[period];
  }

  async tradingData(user: UserRow, query: TradingDataQuery): Promise<TradingData> {
    const settings = await this.requireLinked(user);
    const before = query.before === undefined ? undefined : decodeCursor(query.before);
    const limit = Math.min(query.limit, historyPageSize.max);
    const link = await this.trading.accountLink(user.id);
    const loadClosed = async () => {
      const page = await this.trading.closedPage(user.id, {
        since: this.since(query.period),
        limit,
        before,
      });
      const last = page.trades.at(-1);
      return {
        closed: page.trades.map((trade) =>
          tradeRowOf(trade, this.catalogue, operationCurrency(trade, link)),
        ),
        closedPage: {
          period: query.period,
          total: page.total,
          nextCursor: last && page.more ? encodeCursor(last) : null,
        },
      };
    };
    const firstOfAll = query.period === 'all' && before === undefined;
    const [now, closed] = await Promise.all([
      this.liveNow(settings, link),
      this.closedPages && firstOfAll
        ? this.closedPages.firstPage(user.id, limit, loadClosed)
        : loadClosed(),
    ]);
    return {
      account: now.account,
      accountKind: link.kind,
      prices: this.priceSource(link),
      accountCurrency: now.currency,
      trades: now.trades,
      ...closed,
      robot: now.robot,
    };
  }

  /**
   * What a socket gets as it connects (issue 40): the figures, open rows and robot status as
   * get-all-data says them now (the holder's, when scaled), so that a browser that was not
   * listening, and got no update meanwhile, shows them at once. Undefined for a user who is not
   * linked (nothing live to show) or no longer exists.
   */
  async liveInfo(userId: string): Promise<RealtimeInfo | undefined> {
    const settings = await this.users.findSettings(userId);
    if (!settings?.linked) return undefined;
    const now = await this.liveNow(settings, await this.trading.accountLink(userId));
    return {
      ...(now.account ? { account: now.account } : {}),
      accountCurrency: now.currency,
      trades: now.trades,
      robot: now.robot,
    };
  }

  /** The account's live side: one read of the robot's view (the holder's, when scaled). */
  private async liveNow(
    settings: SettingsRow,
    link: AccountLink,
  ): Promise<{
    account: TradingAccount | null;
    currency: string | null;
    trades: TradeRow[];
    robot: RobotStatus;
  }> {
    const { userId } = settings;
    const live = this.live(userId);
    const [figures, trades, robot] = await Promise.all([
      // A broker account's figures come from the broker only: never the built-in ledger.
      link.kind === 'simulated'
        ? this.account(userId, live).then((account) => ({ account, currency: link.currency }))
        : this.brokerAccount(live, link.currency),
      this.openRows(userId, live),
      this.robotStatus(settings, live),
    ]);
    return { ...figures, trades, robot };
  }

  /**
   * A linked broker account's figures as the robot last read them at the broker, or null, in
   * the currency the broker reported (what it said at linking while the robot has no figures).
   */
  private async brokerAccount(
    live: Promise<AccountProjection | undefined>,
    linkedCurrency: string | null,
  ): Promise<{ account: TradingAccount | null; currency: string | null }> {
    const projection = await live;
    return {
      account: projection?.account ?? null,
      currency: projection?.currency ?? linkedCurrency,
    };
  }

  /**
   * The currency of the account's amounts (decision 097): the robot's live reading at the
   * broker, else what the broker said when the account was linked; USD on the built-in platform.
   */
  async accountCurrency(userId: string): Promise<string | null> {
    const [projection, link] = await Promise.all([
      this.live(userId),
      this.trading.accountLink(userId),
    ]);
    return projection?.currency ?? link.currency;
  }

  /** The account's figures, live from the platform; null without a platform account. */
  async account(userId: string, live = this.live(userId)): Promise<TradingAccount | null> {
    // The robot's projection of the account (decision 070), already in the contract's shape.
    const projection = await live;
    if (projection) return projection.account;
    const stored = await this.trading.platformAccount(userId);
    if (!stored) return null;
    // No robot has the account (or, scaled, its holder did not answer in time), or it is
    // restarting: the ledger as last booked, with the margin its open operations hold and no
    // unrealised profit (none is measured here).
    const open = await this.trading.openOperations(userId);
    const usedMarginCents = open.reduce((sum, trade) => sum + trade.marginCents, 0);
    return tradingAccountOf({
      accountId: userId,
      depositsCents: stored.depositsCents,
      realisedProfitCents: stored.realisedProfitCents,
      balanceCents: stored.balanceCents,
      equityCents: stored.balanceCents,
      usedMarginCents,
      freeMarginCents: stored.balanceCents - usedMarginCents,
      openPositions: open.length,
    });
  }

  /**
   * The robot's view of the account (decision 070): this process's robot, or in the scaled
   * set-up the holder's (decision 105).
   */
  private live(userId: string): Promise<AccountProjection | undefined> {
    return this.commands.projection(userId);
  }

  /** Open operations, newest first, each with its live profit. */
  async openRows(userId: string, live = this.live(userId)): Promise<TradeRow[]> {
    const projection = await live;
    if (projection) return [...projection.trades];
    const [open, link] = await Promise.all([
      this.trading.openOperations(userId),
      this.trading.accountLink(userId),
    ]);
    return open.map((trade) =>
      tradeRowOf(trade, this.catalogue, operationCurrency(trade, link), 0),
    );
  }

  /** The newest closed operations (what a real-time update carries). */
  async newestClosedRows(userId: string, count: number): Promise<TradeRow[]> {
    const [page, link] = await Promise.all([
      this.trading.closedPage(userId, { since: undefined, limit: count, before: undefined }),
      this.trading.accountLink(userId),
    ]);
    return page.trades.map((trade) =>
      tradeRowOf(trade, this.catalogue, operationCurrency(trade, link)),
    );
  }

  /**
   * GET robot-status (decision 147): what get-all-data's `robot` says, alone, for a dashboard
   * that keeps its category lines current without reading the account and its history again.
   */
  async robotStatusFor(user: UserRow): Promise<RobotStatus> {
    return this.robotStatus(await this.requireLinked(user));
  }

  /** The user's robot status now, or undefined without settings (a deleted account). */
  async robotStatusOf(userId: string): Promise<RobotStatus | undefined> {
    const settings = await this.users.findSettings(userId);
    return settings ? this.robotStatus(settings) : undefined;
  }

  /** On or off, and why a robot that is on does not trade (most fundamental reason first). */
  async robotStatus(
    settings: SettingsRow,
    /** The robot's view of the account, when the caller already asked for it. */
    live?: Promise<AccountProjection | undefined>,
  ): Promise<RobotStatus> {
    if (!this.leases) {
      const { idleReason, activity } = await this.idleReason(settings);
      return {
        bot_on: settings.botOn,
        trading: idleReason === null,
        idleReason,
        ...(activity ? { activity } : {}),
      };
    }
    const lease = await this.trading.leaseHolder(settings.userId);
    const holder = lease ? { process: lease.owner, since: lease.since.toISOString() } : null;
    const { idleReason, activity } = await this.idleReason(settings, holder, live);
    return {
      bot_on: settings.botOn,
      trading: idleReason === null,
      idleReason,
      holder,
      ...(activity ? { activity } : {}),
    };
  }

  /**
   * Why the robot is idle, and what it does per chosen category (decision 147) when a robot
   * answers for the account: the account's own robot says both, here or at the holder.
   */
  private async idleReason(
    settings: SettingsRow,
    /** With leases: the process holding the account now (null: none). */
    holder?: RobotHolder | null,
    live?: Promise<AccountProjection | undefined>,
  ): Promise<{ idleReason: RobotIdleReason | null; activity?: RobotActivity | undefined }> {
    const idle = (idleReason: RobotIdleReason | null) => ({ idleReason });
    if (!settings.botOn) return idle('ROBOT_OFF');
    if (!settings.authorized) return idle('NOT_AUTHORIZED');
    if (!settings.linked) return idle('NOT_LINKED');
    const effective = effectiveRobotSettings(settings);
    const anyCategory = categories.some(
      (category) => effective.categories_enabled.all || effective.categories_enabled[category],
    );
    if (!anyCategory) return idle('NO_CATEGORY_ENABLED');
    if (holder !== undefined && holder?.process !== this.leases?.owner) {
      // Scaled set-up, an account this process does not hold: the process holding its lease
      // trades it and says why it is idle (a closed market, a loss limit), when it answers in
      // time (decision 105); with no holder, nothing trades it until a process claims it.
      if (holder) {
        const status = (await (live ?? this.live(settings.userId)))?.status;
        return { idleReason: status?.idleReason ?? null, activity: status?.activity };
      }
      return idle(
        (await this.trading.platformAccount(settings.userId)) ? 'TRADING_HALTED' : 'NOT_LINKED',
      );
    }
    // No robot runs in this process, or its worker is restarting: nothing trades now.
    if (!this.robot?.running()) return idle('TRADING_HALTED');
    // Linked in the user's settings, but no account at the built-in platform to trade on.
    // A linked broker account whose run could not start says why (decision 096).
    if (!this.robot.hasAccount(settings.userId)) {
      return idle(this.robot.brokerStatus(settings.userId) ?? 'NOT_LINKED');
    }
    const status = await this.robot.accountStatus(settings.userId);
    return { idleReason: status.idleReason, activity: status.activity };
  }

  /** spec §7 POST settings: stored, then applied to the running engine at once. */
  async updateSettings(user: UserRow, change: SettingsChange): Promise<RobotSettingsView> {
    const settings = await this.requireLinked(user);
    // Without access the robot stays off: saving it off (or its risk, its categories) is fine.
    if (change.bot_on && !settings.authorized) {
      throw new RobotOnWithoutAccess();
    }
    const flags = change.categories_enabled;
    const five = Object.fromEntries(
      categories.map((category) => [category, flags[category] === true]),
    );
    // Without `all`, the five flags say everything: `all` is on only when each of them is.
    const all = flags.all ?? categories.every((category) => flags[category] === true);
    const row = await this.users.updateRobotSettings(
      user.id,
      {
        botOn: change.bot_on,
        risk: change.risk,
        categoriesEnabled: { ...five, all },
      },
      this.clock.now(),
    );
    await this.applyToEngine(row);
    return robotSettingsView(row);
  }

  /**
   * Applies the stored settings to the running engine: after a write elsewhere changed what
   * is in force (billing's `authorized`), once the session cache has dropped the old row.
   */
  async applyStoredSettings(userId: string): Promise<void> {
    const row = await this.users.findSettings(userId);
    if (row) await this.applyToEngine(row);
  }

  /** The robot trading the account applies them: here, or at the holder (decision 105). */
  private async applyToEngine(row: SettingsRow): Promise<void> {
    await this.commands.applySettings(row.userId, effectiveRobotSettings(row));
  }

  /**
   * Before an account is deleted (decision 080): a linked user's robot stops and every open
   * operation closes, through the kill switch (decision 063). Nothing to do for a user who
   * never linked. Returns how many operations it closed.
   */
  async stopBeforeDeletion(user: UserRow): Promise<number> {
    const settings = await this.users.findSettings(user.id);
    if (!settings?.linked) return 0;
    return (await this.kill(user, { notify: false })).closed;
  }

  /**
   * The user's kill switch: the robot goes off (no new order from now on) and every open
   * operation closes at the market. Orders already on their way may still fill: they are
   * closed too once they land. In the scaled set-up the process holding the account closes
   * them (decision 105); the robot is off in the database first, whatever happens next.
   */
  async kill(
    user: UserRow,
    options: { notify: boolean } = { notify: true },
  ): Promise<{ settings: RobotSettingsView; closed: number }> {
    const current = await this.requireLinked(user);
    // With one process: no robot here, or its worker is restarting: nothing changes, so that a
    // retry does it all.
    if (!this.commands.reachable()) throw new RobotUnavailable();
    const row = await this.users.updateRobotSettings(
      user.id,
      { botOn: false, risk: current.risk, categoriesEnabled: current.categoriesEnabled },
      this.clock.now(),
    );
    const closed = await this.commands.closeAll(user.id, effectiveRobotSettings(row));
    if (options.notify) await this.stops?.killSwitchPulled(user.id, closed);
    return { settings: robotSettingsView(row), closed };
  }

  /** Operations open now on the account, as the robot trading it sees them (decision 105). */
  openOperationCount(userId: string): Promise<number> {
    return this.commands.openOperations(userId);
  }

  /**
   * The operations closed since `since` (robot time) and the account as it stands: the daily
   * summary's figures (decision 088). Undefined without a platform account.
   */
  async dayFigures(userId: string, since: number): Promise<DayFigures | undefined> {
    const account = await this.account(userId);
    if (!account) return undefined;
    const [closedSince, open, link, currency] = await Promise.all([
      this.trading.closedSince(userId, since),
      this.openRows(userId),
      this.trading.accountLink(userId),
      this.accountCurrency(userId),
    ]);
    // A linked account whose broker never said its currency has no figures to sum up.
    if (currency === null) return undefined;
    // Only the account's own operations: a former link's are in another currency.
    const closed = closedSince.filter((trade) => operationCurrency(trade, link) === currency);
    const profits = closed.map((trade) => tradeRowOf(trade, this.catalogue, currency).Profit);
    const cents = profits.reduce((sum, profit) => sum + Math.round(profit * 100), 0);
    return {
      closed: closed.length,
      won: profits.filter((profit) => profit > 0).length,
      lost: profits.filter((profit) => profit < 0).length,
      currency,
      profit: cents / 100,
      balance: account.balance,
      equity: account.equity,
      open: open.length,
    };
  }

  /**
   * The balance after each deposit and each closed operation (deposits + cumulative realised
   * profit, as the platform booked them), then the equity now. Times in epoch seconds, one point
   * per second at most (the chart needs increasing times), thinned to `equityCurveMaxPoints`.
   */
  async equityCurve(user: UserRow, period: HistoryPeriod): Promise<EquityPoint[]> {
    await this.requireLinked(user);
    const since = this.since(period);
    const [changes, link] = await Promise.all([
      this.trading.balanceChanges(user.id),
      this.trading.accountLink(user.id),
    ]);
    // The ledger is the built-in platform's, in USD: a broker account, in its own currency,
    // shows only its equity now, never the platform's dollars in its series (decision 103).
    const builtIn = link.kind === 'simulated';
    const ledger = builtIn ? changes : [];
    const bySecond = new Map<number, number>();
    let balanceCents = 0;
    for (const change of ledger) {
      balanceCents += change.cents;
      if (since !== undefined && change.at < since) continue;
      bySecond.set(Math.floor(change.at / 1000), balanceCents);
    }
    const nowSecond = Math.floor(this.robotNow() / 1000);
    let points = [...bySecond]
      .filter(([time]) => time < nowSecond)
      .map(([time, cents]) => ({ time, value: centsToDollars(cents) }));
    const limit = equityCurveMaxPoints - 1;
    if (points.length > limit) {
      const step = points.length / limit;
      points = Array.from({ length: limit }, (_, index) => {
        const point = points[Math.min(points.length - 1, Math.floor((index + 1) * step) - 1)];
        if (!point) throw new Error('downsampling out of range');
        return point;
      });
    }
    const account = builtIn
      ? await this.account(user.id)
      : (await this.brokerAccount(this.live(user.id), link.currency)).account;
    if (account) points.push({ time: nowSecond, value: account.equity });
    return points;
  }

  /**
   * The closed history of a period as CSV (UTF-8, a header row, oldest first), with the API's
   * English field names as headers in every language (decision 075).
   */
  /**
   * The closed operations of a period as a spreadsheet in the reader's language and zone, and
   * the file's name (decision 154): the user's stored language and UTC unless told.
   */
  async historyCsv(
    user: UserRow,
    period: HistoryPeriod,
    format: Partial<HistoryCsvFormat> = {},
  ): Promise<{ fileName: string; csv: string }> {
    await this.requireLinked(user);
    const [trades, link] = await Promise.all([
      this.trading.closedSince(user.id, this.since(period)),
      this.trading.accountLink(user.id),
    ]);
    const rows = trades.map((trade) =>
      tradeRowOf(trade, this.catalogue, operationCurrency(trade, link)),
    );
    const language = format.language ?? accountLanguage(user);
    return {
      fileName: historyCsvFileName(language, period),
      csv: historyCsv(
        rows,
        { language, timeZone: format.timeZone ?? 'UTC', prices: this.priceSource(link) },
        this.clock.now(),
      ),
    };
  }

  /** Where the account's prices come from (decision 140), as get-all-data and the CSV say it. */
  private priceSource(link: AccountLink): PriceSource | null {
    return link.kind === 'simulated' ? (this.robot?.builtInMarket() ?? null) : { kind: 'broker' };
  }

  /**
   * The account's refused orders, newest first, a page at a time (decision 101): on the built-in
   * platform and at a linked broker alike, each with our reason and the broker's own code.
   */
  async orderRejections(
    user: UserRow,
    query: { limit: number; before?: string | undefined },
  ): Promise<OrderRejectionsPage> {
    await this.requireLinked(user);
    const before = query.before === undefined ? undefined : decodeRejectionCursor(query.before);
    const page = await this.trading.rejectionsPage(user.id, { limit: query.limit, before });
    const last = page.rows.at(-1);
    return {
      rejections: page.rows.map((row) => orderRejectionOf(row, this.catalogue)),
      nextCursor: last && page.more ? encodeRejectionCursor(last) : null,
    };
  }

  /**
   * A linked broker account's symbols the robot does not trade (decision 101); not applicable
   * on the built-in platform, which lists only our instruments.
   */
  async untradableSymbols(user: UserRow): Promise<UntradableSymbolsView> {
    await this.requireLinked(user);
    const link = await this.trading.accountLink(user.id);
    if (link.kind === 'simulated') return { applicable: false, symbols: null };
    return { applicable: true, symbols: await this.trading.untradableSymbols(user.id) };
  }
}
