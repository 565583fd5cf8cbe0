import type { AdminMessageFilter, ContactStatus } from '@tradebot/contract';
import { and, asc, count, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database';
import { admins, contactMessages, contactReplies, users } from '../db/schema';

export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type NewContactMessage = typeof contactMessages.$inferInsert;

export interface MessageAuthor {
  id: string;
  email: string;
  name: string;
  lastName: string;
}

export interface MessageListing extends ContactMessageRow {
  user: MessageAuthor;
  replies: number;
}

export interface ReplyRow {
  id: string;
  body: string;
  createdAt: Date;
  admin: { id: string; name: string };
}

/** Contact messages and support's replies to them (the thread). */
export interface ContactMessagesStore {
  create(message: NewContactMessage): Promise<ContactMessageRow>;
  page(
    filter: AdminMessageFilter,
    offset: number,
    limit: number,
    now: Date,
  ): Promise<{ messages: MessageListing[]; total: number; overdue: number }>;
  find(id: string): Promise<MessageListing | undefined>;
  thread(id: string): Promise<ReplyRow[]>;
  ofUser(userId: string, limit: number): Promise<MessageListing[]>;
  /** Adds a reply; the message becomes answered (its first reply time kept). */
  addReply(
    messageId: string,
    adminId: string,
    body: string,
    now: Date,
    db?: Db,
  ): Promise<{ id: string }>;
  setStatus(id: string, status: ContactStatus, now: Date, db?: Db): Promise<void>;
}

export class ContactMessagesRepository implements ContactMessagesStore {
  constructor(private readonly db: Db) {}

  async create(message: NewContactMessage): Promise<ContactMessageRow> {
    const [row] = await this.db.insert(contactMessages).values(message).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  private listing(where: SQL | undefined) {
    return this.db
      .select({
        message: contactMessages,
        user: { id: users.id, email: users.email, name: users.name, lastName: users.lastName },
        replies: sql<number>`(select count(*)::int from ${contactReplies} where ${contactReplies.messageId} = ${contactMessages.id})`,
      })
      .from(contactMessages)
      .innerJoin(users, eq(users.id, contactMessages.userId))
      .where(where);
  }

  async page(filter: AdminMessageFilter, offset: number, limit: number, now: Date) {
    const where = filter === 'all' ? undefined : eq(contactMessages.status, filter);
    // Open messages by urgency (the oldest due first); the others newest first.
    const order =
      filter === 'open'
        ? [asc(contactMessages.dueAt), asc(contactMessages.id)]
        : [desc(contactMessages.createdAt), desc(contactMessages.id)];
    const [rows, [totals], [late]] = await Promise.all([
      this.listing(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(contactMessages).where(where),
      this.db
        .select({ overdue: count() })
        .from(contactMessages)
        .where(and(eq(contactMessages.status, 'open'), lt(contactMessages.dueAt, now))),
    ]);
    return {
      messages: rows.map(flatten),
      total: totals?.total ?? 0,
      overdue: late?.overdue ?? 0,
    };
  }

  async find(id: string): Promise<MessageListing | undefined> {
    const [row] = await this.listing(eq(contactMessages.id, id)).limit(1);
    return row && flatten(row);
  }

  async thread(id: string): Promise<ReplyRow[]> {
    return this.db
      .select({
        id: contactReplies.id,
        body: contactReplies.body,
        createdAt: contactReplies.createdAt,
        admin: { id: admins.id, name: admins.name },
      })
      .from(contactReplies)
      .innerJoin(admins, eq(admins.id, contactReplies.adminId))
      .where(eq(contactReplies.messageId, id))
      .orderBy(asc(contactReplies.createdAt), asc(contactReplies.id));
  }

  async ofUser(userId: string, limit: number): Promise<MessageListing[]> {
    const rows = await this.listing(eq(contactMessages.userId, userId))
      .orderBy(desc(contactMessages.createdAt))
      .limit(limit);
    return rows.map(flatten);
  }

  async addReply(messageId: string, adminId: string, body: string, now: Date, db: Db = this.db) {
    const [reply] = await db
      .insert(contactReplies)
      .values({ messageId, adminId, body, createdAt: now })
      .returning({ id: contactReplies.id });
    if (!reply) throw new Error('insert returned no row');
    await db
      .update(contactMessages)
      .set({
        status: 'answered',
        answeredAt: sql`coalesce(${contactMessages.answeredAt}, ${now.toISOString()}::timestamptz)`,
        updatedAt: now,
      })
      .where(eq(contactMessages.id, messageId));
    return reply;
  }

  async setStatus(id: string, status: ContactStatus, now: Date, db: Db = this.db): Promise<void> {
    await db
      .update(contactMessages)
      .set({ status, updatedAt: now })
      .where(eq(contactMessages.id, id));
  }
}

function flatten(row: {
  message: ContactMessageRow;
  user: MessageAuthor;
  replies: number;
}): MessageListing {
  return { ...row.message, user: row.user, replies: row.replies };
}
