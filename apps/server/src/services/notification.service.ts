import { randomUUID } from 'node:crypto';
import { timeZoneOffsetMs } from '@tradebot/robot';
import {
  dailySummaryHour,
  type Language,
  type NotificationSettings,
  type TradeRow,
  type UpdateNotificationSettingsRequest,
} from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { JobClaims } from '../repositories/job-claims.repository';
import type { Mailer } from '../repositories/mail.repository';
import {
  batchedKinds,
  wantedBy,
  type NotificationRecord,
  type NotificationsStore,
} from '../repositories/notifications.repository';
import type { OncePerWindow } from '../repositories/once-per-window.repository';
import type { UserRow } from '../repositories/users.repository';
import type { AccountProjection, RobotEvent } from '../robot/protocol/robot-protocol';
import type {
  PushSender,
  PushSubscriptionsStore,
  StoredPushSubscription,
} from '../repositories/web-push.repository';
import {
  notificationMail,
  notificationPush,
  type DaySummary,
  type MarginNotice,
  type NotificationLinks,
  type OperationNotice,
  type RobotStopReason,
} from './notification-mail-templates';
import type { DayFigures, RobotStopNotices } from './trading.service';
import { PushUnavailable } from './notification.errors';
import { notificationDeliveries, notificationFailures } from '../metrics/server-metrics';

/** Operations opened and closed reach a user in at most one e-mail per this window. */
export const operationsMailWindowMs = 60_000;
/**
 * Delivered outbox rows are kept this long (what was sent, for support), then deleted; at most
 * one process prunes per `outboxPruneWindowMs` (job claims, decision 078).
 */
export const deliveredNotificationsKeptMs = 30 * 86_400_000;
export const outboxPruneWindowMs = 3_600_000;
/** The platform closes operations at a 50 % margin level; the warning comes at 100 %. */
export const marginWarningLevel = 1;
/** Where the daily summary's evening is when the browser never told us (decision 088). */
export const fallbackTimeZones: Readonly<Record<Language, string>> = {
  es: 'America/Argentina/Buenos_Aires',
  pt: 'America/Sao_Paulo',
};

const deliveriesPerRun = 200;
const deliveriesAtOnce = 16;
const usersBatchedPerRun = 500;
/** Keys this process recorded lately: an event seen again costs no database write. */
const recentKeysKept = 10_000;

export interface NotificationServiceOptions {
  readonly repository: NotificationsStore;
  readonly claims: JobClaims;
  readonly windows: OncePerWindow;
  readonly mailer: Mailer;
  readonly clock: Clock;
  /** The robot's time, epoch ms: operations are stamped with it. */
  readonly robotNow: () => number;
  readonly links: (language: Language) => NotificationLinks;
  /** The day's figures of an account, since `since` (robot time); undefined without one. */
  readonly dayFigures: (userId: string, since: number) => Promise<DayFigures | undefined>;
  /** The robot's own account (decision 060): nobody reads its mail. */
  readonly houseAccountId: string;
  readonly onError: (error: unknown, what: string) => void;
  /** Web push, with the server's VAPID public key; absent, nothing is pushed. */
  readonly push?: {
    readonly publicKey: string;
    /** Whether an endpoint may be subscribed and pushed to (the push services; decision 115). */
    readonly accepts: (endpoint: string) => boolean;
    readonly subscriptions: PushSubscriptionsStore;
    readonly sender: PushSender;
    /**
     * A push not delivered: the endpoint's host (the rest of an endpoint is the browser's
     * capability, kept out of logs) and why, in one line.
     */
    readonly onNotDelivered: (failure: { host: string; reason: string }) => void;
  };
}

/** An endpoint's host, for the log; the rest of it lets anyone push to the browser. */
function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'an unreadable address';
  }
}

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function operationOf(trade: TradeRow, currency: string): OperationNotice {
  return {
    currency,
    id: trade.id,
    name: trade.OutputName,
    side: trade.side,
    lots: trade.Amount,
    openPrice: trade.openPrice,
    closePrice: trade.closePrice,
    profit: trade.Profit,
    closeReason: trade.closeReason,
  };
}

const dayMs = 86_400_000;

export interface LocalTime {
  readonly date: string;
  readonly hour: number;
  readonly msIntoDay: number;
}

/**
 * The local date and hour at `at` in `timeZone`, from the robot's zone offsets (one formatter
 * per zone, one offset per zone and hour: building an `Intl.DateTimeFormat` per user on every
 * notification run held the event loop about half a second every 5 s with 10,000 users;
 * docs/benchmarks.md, 2026-11-26 night).
 */
export function localTime(at: Date, timeZone: string): LocalTime {
  const local = at.getTime() + timeZoneOffsetMs(timeZone, at.getTime());
  const msIntoDay = ((local % dayMs) + dayMs) % dayMs;
  return {
    date: new Date(local).toISOString().slice(0, 10),
    hour: Math.floor(msIntoDay / 3_600_000),
    msIntoDay,
  };
}

/**
 * Notifications (issue 22; decision 088). Events are recorded once in the outbox (a unique key
 * per event), only for users who want them; `runDue`, on every process's timer, gathers each
 * user's operations into at most one e-mail a minute, and delivers each e-mail under a job claim
 * (decision 078): once across processes, retried once after a process died holding it.
 */
export class NotificationService implements RobotStopNotices {
  private readonly recentKeys = new Set<string>();
  private work: Promise<void> = Promise.resolve();
  private running: Promise<void> | undefined;

  constructor(private readonly options: NotificationServiceOptions) {}

  settings(user: UserRow): Promise<NotificationSettings> {
    return this.options.repository.settings(user.id);
  }

  updateSettings(
    user: UserRow,
    change: UpdateNotificationSettingsRequest,
  ): Promise<NotificationSettings> {
    const { time_zone, language: _language, ...flags } = change;
    return this.options.repository.saveSettings(user.id, flags, time_zone);
  }

  pushKey(): string {
    if (!this.options.push) throw new PushUnavailable();
    return this.options.push.publicKey;
  }

  /** Whether a browser's push subscription may name this endpoint (decision 115). */
  acceptsPushEndpoint(endpoint: string): boolean {
    return this.options.push?.accepts(endpoint) ?? false;
  }

  /** Keeps this browser's subscription: the same events then reach it by push. */
  async subscribePush(user: UserRow, subscription: StoredPushSubscription): Promise<void> {
    const push = this.options.push;
    if (!push) throw new PushUnavailable();
    await push.subscriptions.save(user.id, subscription);
  }

  async unsubscribePush(user: UserRow, endpoint: string): Promise<boolean> {
    return (await this.options.push?.subscriptions.remove(user.id, endpoint)) ?? false;
  }

  /** The robot's one stream of events (decision 070), as the live updates read it. */
  robotEvent(event: RobotEvent): void {
    switch (event.type) {
      case 'PositionOpened':
        this.enqueue(
          this.operation(event.accountId, 'operation_opened', event.trade, event.projection),
          ...this.accountState(event.projection),
        );
        return;
      case 'PositionClosed': {
        const records = [
          this.operation(event.accountId, 'operation_closed', event.trade, event.projection),
        ];
        if (event.trade.closeReason === 'sl') {
          records.push(this.operation(event.accountId, 'stop_loss', event.trade, event.projection));
        }
        this.enqueue(...records, ...this.accountState(event.projection));
        return;
      }
      case 'AccountChanged':
        this.enqueue(...this.accountState(event.projection));
        return;
      case 'BrokerStatus':
        // The grant refused: the user must link again (decision 096). A dropped connection
        // reconnects on its own and is shown on the dashboard only.
        if (event.status === 'BROKER_RECONNECT_NEEDED') {
          const day = utcDate(this.options.clock.now().getTime());
          this.enqueue({
            userId: event.accountId,
            kind: 'robot_stopped',
            key: `${event.accountId}:robot_stopped:broker_reconnect_needed:${day}`,
            payload: { reason: 'broker_reconnect_needed' satisfies RobotStopReason },
          });
        }
        return;
      case 'ClosureStored':
      case 'OrderRejected':
      case 'ModelWarmedUp':
      case 'TradingHalted':
      case 'TradingResumed':
      case 'RobotStopped':
        return;
    }
  }

  /** The user pulled the kill switch (or support did for them). */
  async killSwitchPulled(userId: string, closed: number): Promise<void> {
    const at = this.options.clock.now().getTime();
    await this.record({
      userId,
      kind: 'robot_stopped',
      key: `${userId}:robot_stopped:kill_switch:${String(at)}`,
      payload: { reason: 'kill_switch' satisfies RobotStopReason, closed },
    });
  }

  /** The user's access ended while their robot was on (billing's clock, a refund). */
  async accessEnded(userId: string): Promise<void> {
    const day = utcDate(this.options.clock.now().getTime());
    await this.record({
      userId,
      kind: 'robot_stopped',
      key: `${userId}:robot_stopped:access_ended:${day}`,
      payload: { reason: 'access_ended' satisfies RobotStopReason },
    });
  }

  /** Resolves once the events received so far are recorded. */
  async settled(): Promise<void> {
    let last: Promise<void> | undefined;
    while (last !== this.work) {
      last = this.work;
      await last;
    }
  }

  /** Resolves once the run under way (if any) is over. */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  /** One run at a time in this process: batches, deliveries, then the evening's summaries. */
  runDue(): Promise<void> {
    this.running ??= (async () => {
      try {
        await this.work;
        await this.batchOperations();
        await this.recordDailySummaries();
        await this.deliverDue();
        await this.pruneDelivered();
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Delivered rows past their retention go, once an hour by one process. */
  private async pruneDelivered(): Promise<void> {
    const { repository, windows } = this.options;
    if (!(await windows.take('notify.prune', 'outbox', outboxPruneWindowMs))) return;
    await repository.prune(deliveredNotificationsKeptMs);
  }

  private operation(
    accountId: string,
    kind: 'operation_opened' | 'operation_closed' | 'stop_loss',
    trade: TradeRow,
    projection: AccountProjection,
  ): NotificationRecord | undefined {
    if (accountId === this.options.houseAccountId) return undefined;
    const event = kind === 'operation_opened' ? 'opened' : kind === 'stop_loss' ? 'sl' : 'closed';
    return {
      userId: accountId,
      kind,
      key: `${accountId}:${event}:${trade.id}`,
      payload: operationOf(trade, projection.currency) as unknown as Record<string, unknown>,
    };
  }

  /** What the account's projection says worth hearing: the daily loss limit, thin margin. */
  private accountState(projection: AccountProjection): NotificationRecord[] {
    const { accountId, account, status } = projection;
    if (accountId === this.options.houseAccountId) return [];
    const day = utcDate(this.options.robotNow());
    const records: NotificationRecord[] = [];
    if (status.idleReason === 'DAILY_LOSS_LIMIT') {
      records.push({
        userId: accountId,
        kind: 'robot_stopped',
        // The limit counts from the UTC day's start (the risk gate's dayStartEquity).
        key: `${accountId}:robot_stopped:daily_loss_limit:${day}`,
        payload: { reason: 'daily_loss_limit' satisfies RobotStopReason },
      });
    }
    if (account.usedMargin > 0 && account.equity < account.usedMargin * marginWarningLevel) {
      const margin: MarginNotice = {
        currency: projection.currency,
        equity: account.equity,
        usedMargin: account.usedMargin,
        freeMargin: account.freeMargin,
        marginLevel: (account.equity / account.usedMargin) * 100,
      };
      records.push({
        userId: accountId,
        kind: 'margin_warning',
        key: `${accountId}:margin_warning:${day}`,
        payload: margin as unknown as Record<string, unknown>,
      });
    }
    return records;
  }

  private enqueue(...records: (NotificationRecord | undefined)[]): void {
    for (const record of records) {
      if (!record || this.recentKeys.has(record.key)) continue;
      if (this.recentKeys.size >= recentKeysKept) this.recentKeys.clear();
      this.recentKeys.add(record.key);
      this.work = this.work.then(() => this.record(record));
    }
  }

  private async record(record: NotificationRecord): Promise<void> {
    try {
      await this.options.repository.record(record);
    } catch (error) {
      this.recentKeys.delete(record.key);
      this.options.onError(error, 'recording a notification');
    }
  }

  /** Each user's waiting operations become one delivery, at most once a minute per user. */
  private async batchOperations(): Promise<void> {
    const { repository, windows } = this.options;
    for (const userId of await repository.usersWithUnbatched(usersBatchedPerRun)) {
      const taken = await windows.take('notify.operations', userId, operationsMailWindowMs);
      if (!taken) continue;
      const batched = await repository.batch(userId, `operations:${randomUUID()}`);
      // Nothing was waiting after all (another process batched it): the minute stays free.
      if (batched === 0) await taken.release();
    }
  }

  /** At the user's local evening, the day's figures, once per local date. */
  private async recordDailySummaries(): Promise<void> {
    const { repository, clock, robotNow, houseAccountId } = this.options;
    const now = clock.now();
    const due: { userId: string; date: string; msIntoDay: number; key: string }[] = [];
    // Users share a few zones: each zone's local time is worked out once per run.
    const byZone = new Map<string, LocalTime>();
    for (const candidate of await repository.summaryCandidates(houseAccountId)) {
      const zone = candidate.timeZone ?? fallbackTimeZones[candidate.language];
      let local = byZone.get(zone);
      if (!local) {
        local = localTime(now, zone);
        byZone.set(zone, local);
      }
      if (local.hour < dailySummaryHour) continue;
      due.push({
        userId: candidate.userId,
        date: local.date,
        msIntoDay: local.msIntoDay,
        key: `${candidate.userId}:daily_summary:${local.date}`,
      });
    }
    const recorded = await repository.recordedKeys(due.map((item) => item.key));
    for (const item of due) {
      if (recorded.has(item.key)) continue;
      const figures = await this.options.dayFigures(item.userId, robotNow() - item.msIntoDay);
      if (!figures) continue;
      const summary: DaySummary = { date: item.date, ...figures };
      await this.record({
        userId: item.userId,
        kind: 'daily_summary',
        key: item.key,
        payload: summary as unknown as Record<string, unknown>,
      });
    }
  }

  /** Due deliveries, a few at a time: a slow mail server or push service holds back no others. */
  private async deliverDue(): Promise<void> {
    const due = await this.options.repository.dueDeliveries(deliveriesPerRun);
    for (let start = 0; start < due.length; start += deliveriesAtOnce) {
      await Promise.all(
        due.slice(start, start + deliveriesAtOnce).map((delivery) => this.deliverClaimed(delivery)),
      );
    }
  }

  private async deliverClaimed(delivery: string): Promise<void> {
    const claim = await this.options.claims.claim('notify.email', delivery);
    if (!claim) return;
    try {
      await this.deliver(delivery);
    } catch (error) {
      notificationFailures.inc({ channel: 'email' });
      await claim.release();
      this.options.onError(error, 'mailing a notification');
      return;
    }
    await claim.finish();
  }

  private async deliver(delivery: string): Promise<void> {
    const { repository, mailer, links } = this.options;
    const rows = await repository.deliveryRows(delivery);
    const first = rows[0];
    if (!first) return;
    const recipient = await repository.recipient(first.userId);
    const ids = rows.map((row) => row.id);
    if (!recipient || recipient.deleted) {
      await repository.delivered(ids, 'no_account');
      return;
    }
    // Switched off since it was recorded: not sent.
    const wanted = rows.filter((row) => wantedBy(recipient.settings, row.kind));
    const unwanted = rows.filter((row) => !wanted.includes(row));
    await repository.delivered(
      unwanted.map((row) => row.id),
      'off',
    );
    if (wanted.length === 0) return;
    // A batch lists its operations; any other delivery is one event.
    const shown = batchedKinds.includes(first.kind) ? wanted : wanted.slice(0, 1);
    await mailer.send(
      await notificationMail(
        recipient.language,
        recipient.email,
        recipient.name,
        shown,
        links(recipient.language),
        recipient.accountKind,
      ),
    );
    await repository.delivered(
      wanted.map((row) => row.id),
      'sent',
    );
    notificationDeliveries.inc({ channel: 'email' });
    await this.pushTo(
      first.userId,
      notificationPush(recipient.language, shown, links(recipient.language)),
    );
  }

  /**
   * The same notice to each browser the user allowed, once the e-mail is out (under the same
   * claim). A subscription its push service says is gone is deleted, and so is one whose
   * endpoint is no push service's (stored before decision 115); any other failure is logged in
   * one line and not retried (the e-mail carried it).
   */
  private async pushTo(userId: string, message: { title: string; body: string; url: string }) {
    const push = this.options.push;
    if (!push) return;
    const payload = JSON.stringify(message);
    const subscriptions = await push.subscriptions.forUser(userId);
    await Promise.all(
      subscriptions.map(async (subscription) => {
        try {
          const outcome = await push.sender.send(subscription, payload);
          // A subscription the push service says is gone was ended by its browser: no failure.
          if (outcome.status === 'sent') notificationDeliveries.inc({ channel: 'push' });
          if (outcome.status === 'failed' || outcome.status === 'refused') {
            notificationFailures.inc({ channel: 'push' });
          }
          if (outcome.status === 'gone' || outcome.status === 'refused') {
            await push.subscriptions.gone(subscription.endpoint);
          }
          if (outcome.status === 'failed' || outcome.status === 'refused') {
            push.onNotDelivered({
              host: hostOf(subscription.endpoint),
              reason: outcome.status === 'refused' ? 'not a push service' : outcome.reason,
            });
          }
        } catch (error) {
          notificationFailures.inc({ channel: 'push' });
          this.options.onError(error, 'pushing a notification');
        }
      }),
    );
  }
}
