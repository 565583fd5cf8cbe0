import {
  type AccountKind,
  defaultNotificationSettings,
  type Language,
  type NotificationEvent,
  type NotificationSettings,
} from '@tradebot/contract';
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { rowsOf } from '../db/migrate';
import {
  notificationOutbox,
  notificationSettings,
  tradingPlatformLinks,
  userSettings,
  users,
} from '../db/schema';
import { moneyNoticeKinds, type MoneyNoticeKind } from '../domain/money-notices';
import { accountKindOf } from './trading.repository';

/** What the outbox records about the robot and the account (decision 088), each with a switch. */
export const switchableKinds = [
  'operation_opened',
  'operation_closed',
  'stop_loss',
  'robot_stopped',
  'margin_warning',
  'daily_summary',
] as const;
export type SwitchableKind = (typeof switchableKinds)[number];

/** Every kind: the switchable ones and the money notices (decision 148), which have no switch. */
export const notificationKinds = [...switchableKinds, ...moneyNoticeKinds] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export function isMoneyNotice(kind: NotificationKind): kind is MoneyNoticeKind {
  return (moneyNoticeKinds as readonly string[]).includes(kind);
}

/**
 * Whether the user's settings let a kind through: a money notice always (it is about their
 * card being charged, like a receipt: decision 148), any other by its switch.
 */
export function wantedBy(settings: NotificationSettings, kind: NotificationKind): boolean {
  return isMoneyNotice(kind) || settings[settingOfKind[kind]];
}

/** The setting that lets each switchable kind through. */
export const settingOfKind: Readonly<Record<SwitchableKind, NotificationEvent>> = {
  operation_opened: 'operations',
  operation_closed: 'operations',
  stop_loss: 'stop_loss',
  robot_stopped: 'robot_stopped',
  margin_warning: 'margin_warning',
  daily_summary: 'daily_summary',
};

/** Kinds gathered into one e-mail a minute per user; each other kind is an e-mail of its own. */
export const batchedKinds: readonly NotificationKind[] = ['operation_opened', 'operation_closed'];

const columnOf = {
  operations: notificationSettings.operations,
  stop_loss: notificationSettings.stopLoss,
  robot_stopped: notificationSettings.robotStopped,
  margin_warning: notificationSettings.marginWarning,
  daily_summary: notificationSettings.dailySummary,
} as const;

export interface NotificationRecord {
  readonly userId: string;
  /** Money notices are recorded with their period's row instead (`MoneyNoticesStore`). */
  readonly kind: SwitchableKind;
  /** Unique per event: the same event recorded twice is one row. */
  readonly key: string;
  readonly payload: Record<string, unknown>;
}

export interface OutboxRow {
  readonly id: string;
  readonly userId: string;
  readonly kind: NotificationKind;
  readonly payload: Record<string, unknown>;
  readonly createdAt: Date;
}

export interface Recipient {
  readonly email: string;
  readonly name: string;
  readonly language: Language;
  readonly deleted: boolean;
  readonly settings: NotificationSettings;
  /** Where the account lives now, for what the e-mail says its figures are. */
  readonly accountKind: AccountKind;
}

export interface SummaryCandidate {
  readonly userId: string;
  readonly timeZone: string | null;
  readonly language: Language;
}

function settingsOf(
  row: typeof notificationSettings.$inferSelect | null | undefined,
): NotificationSettings {
  if (!row) return { ...defaultNotificationSettings, time_zone: null };
  return {
    operations: row.operations,
    stop_loss: row.stopLoss,
    robot_stopped: row.robotStopped,
    margin_warning: row.marginWarning,
    daily_summary: row.dailySummary,
    time_zone: row.timeZone,
  };
}

/** The notifications port services depend on; `NotificationsRepository` is its database implementation. */
export interface NotificationsStore {
  settings(userId: string): Promise<NotificationSettings>;
  /** Every flag, and the time zone when given (else the stored one stays). */
  saveSettings(
    userId: string,
    flags: Record<NotificationEvent, boolean>,
    timeZone: string | undefined,
  ): Promise<NotificationSettings>;
  /**
   * Records the event once, and only while the user wants this kind (their setting, else the
   * default): one statement, so a user with the kind off costs no row. True when recorded now.
   */
  record(record: NotificationRecord): Promise<boolean>;
  /** Users with operations waiting for their minute's e-mail. */
  usersWithUnbatched(limit: number): Promise<string[]>;
  /** Gathers the user's waiting operations into one delivery; how many it took. */
  batch(userId: string, delivery: string): Promise<number>;
  /** Deliveries not yet done, oldest first. */
  dueDeliveries(limit: number): Promise<string[]>;
  deliveryRows(delivery: string): Promise<OutboxRow[]>;
  delivered(ids: readonly string[], outcome: 'sent' | 'off' | 'no_account'): Promise<void>;
  recipient(userId: string): Promise<Recipient | undefined>;
  /** Linked users who want the daily summary and have none recorded under any of `keys`. */
  summaryCandidates(excludeUserId: string): Promise<SummaryCandidate[]>;
  /** Which of these event keys are recorded already. */
  recordedKeys(keys: readonly string[]): Promise<Set<string>>;
  /** Delivered rows older than `olderThanMs` are forgotten (the e-mails are out). */
  prune(olderThanMs: number): Promise<number>;
}

export class NotificationsRepository implements NotificationsStore {
  constructor(private readonly db: Db) {}

  async settings(userId: string): Promise<NotificationSettings> {
    const [row] = await this.db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, userId))
      .limit(1);
    return settingsOf(row);
  }

  /** Every flag, and the time zone when given (else the stored one stays). */
  async saveSettings(
    userId: string,
    flags: Record<NotificationEvent, boolean>,
    timeZone: string | undefined,
  ): Promise<NotificationSettings> {
    const values = {
      operations: flags.operations,
      stopLoss: flags.stop_loss,
      robotStopped: flags.robot_stopped,
      marginWarning: flags.margin_warning,
      dailySummary: flags.daily_summary,
      ...(timeZone === undefined ? {} : { timeZone }),
      updatedAt: sql`now()`,
    };
    const [row] = await this.db
      .insert(notificationSettings)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: notificationSettings.userId, set: values })
      .returning();
    return settingsOf(row);
  }

  /**
   * Records the event once, and only while the user wants this kind (their setting, else the
   * default): one statement, so a user with the kind off costs no row. True when recorded now.
   */
  async record(record: NotificationRecord): Promise<boolean> {
    const setting = settingOfKind[record.kind];
    const wanted = sql`coalesce(${columnOf[setting]}, ${defaultNotificationSettings[setting]})`;
    // Batched kinds wait for their minute's e-mail; the others are their own delivery.
    const delivery = batchedKinds.includes(record.kind) ? null : record.key;
    const result = await this.db.execute(sql`
      insert into ${notificationOutbox} (user_id, kind, event_key, payload, delivery)
      select ${users.id}, ${record.kind}, ${record.key}, ${JSON.stringify(record.payload)}::jsonb,
        ${delivery}
      from ${users}
      left join ${notificationSettings} on ${notificationSettings.userId} = ${users.id}
      where ${users.id} = ${record.userId}::uuid and ${users.deletedAt} is null and ${wanted}
      on conflict (event_key) do nothing
      returning ${notificationOutbox.id}`);
    return rowsOf(result).length > 0;
  }

  /** Users with operations waiting for their minute's e-mail. */
  async usersWithUnbatched(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ userId: notificationOutbox.userId })
      .from(notificationOutbox)
      .where(and(isNull(notificationOutbox.delivery), isNull(notificationOutbox.deliveredAt)))
      .limit(limit);
    return rows.map((row) => row.userId);
  }

  /** Gathers the user's waiting operations into one delivery; how many it took. */
  async batch(userId: string, delivery: string): Promise<number> {
    const rows = await this.db
      .update(notificationOutbox)
      .set({ delivery })
      .where(
        and(
          eq(notificationOutbox.userId, userId),
          isNull(notificationOutbox.delivery),
          isNull(notificationOutbox.deliveredAt),
        ),
      )
      .returning({ id: notificationOutbox.id });
    return rows.length;
  }

  /** Deliveries not yet done, oldest first. */
  async dueDeliveries(limit: number): Promise<string[]> {
    const result = await this.db.execute(sql`
      select delivery from ${notificationOutbox}
      where delivery is not null and delivered_at is null
      group by delivery
      order by min(created_at)
      limit ${limit}`);
    return rowsOf<{ delivery: string }>(result).map((row) => row.delivery);
  }

  async deliveryRows(delivery: string): Promise<OutboxRow[]> {
    const rows = await this.db
      .select()
      .from(notificationOutbox)
      .where(and(eq(notificationOutbox.delivery, delivery), isNull(notificationOutbox.deliveredAt)))
      .orderBy(asc(notificationOutbox.createdAt), asc(notificationOutbox.eventKey));
    return rows.map((row) => ({
      id: row.id,
      userId: row.userId,
      kind: row.kind as NotificationKind,
      payload: row.payload,
      createdAt: row.createdAt,
    }));
  }

  async delivered(ids: readonly string[], outcome: 'sent' | 'off' | 'no_account'): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(notificationOutbox)
      .set({ deliveredAt: sql`now()`, outcome })
      .where(and(inArray(notificationOutbox.id, [...ids]), isNull(notificationOutbox.deliveredAt)));
  }

  async recipient(userId: string): Promise<Recipient | undefined> {
    const [row] = await this.db
      .select({ user: users, settings: notificationSettings, link: tradingPlatformLinks })
      .from(users)
      .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
      .leftJoin(tradingPlatformLinks, eq(tradingPlatformLinks.userId, users.id))
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) return undefined;
    return {
      email: row.user.email,
      name: row.user.name,
      language: row.user.language === 'pt' ? 'pt' : 'es',
      deleted: row.user.deletedAt !== null,
      settings: settingsOf(row.settings),
      accountKind: accountKindOf(row.link),
    };
  }

  /** Linked users who want the daily summary and have none recorded under any of `keys`. */
  async summaryCandidates(excludeUserId: string): Promise<SummaryCandidate[]> {
    const rows = await this.db
      .select({
        userId: users.id,
        language: users.language,
        timeZone: notificationSettings.timeZone,
      })
      .from(users)
      .innerJoin(userSettings, eq(userSettings.userId, users.id))
      .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
      .where(
        and(
          isNull(users.deletedAt),
          eq(userSettings.linked, true),
          sql`${users.id} <> ${excludeUserId}::uuid`,
          sql`coalesce(${notificationSettings.dailySummary}, ${defaultNotificationSettings.daily_summary})`,
        ),
      );
    return rows.map((row) => ({
      userId: row.userId,
      timeZone: row.timeZone,
      language: row.language === 'pt' ? 'pt' : 'es',
    }));
  }

  /** Which of these event keys are recorded already. */
  async recordedKeys(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .select({ key: notificationOutbox.eventKey })
      .from(notificationOutbox)
      .where(inArray(notificationOutbox.eventKey, [...keys]));
    return new Set(rows.map((row) => row.key));
  }

  /** Delivered rows older than `olderThanMs` are forgotten (the e-mails are out). */
  async prune(olderThanMs: number): Promise<number> {
    const rows = await this.db
      .delete(notificationOutbox)
      .where(
        and(
          isNotNull(notificationOutbox.deliveredAt),
          sql`${notificationOutbox.deliveredAt} < now() - ${olderThanMs} * interval '1 millisecond'`,
        ),
      )
      .returning({ id: notificationOutbox.id });
    return rows.length;
  }
}
