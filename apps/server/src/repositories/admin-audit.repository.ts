import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { adminAuditLog, admins } from '../db/schema';

export interface AuditEntryInput {
  /** Null only for a failed console sign-in with an e-mail that is no admin's (decision 079). */
  adminId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditEntryRow extends AuditEntryInput {
  id: string;
  createdAt: Date;
  admin: { id: string; email: string; name: string } | null;
}

/** The admin audit log: written with each action (in its transaction when it has one). */
export interface AdminAuditStore {
  record(entry: AuditEntryInput, at: Date, db?: Db): Promise<void>;
  page(offset: number, limit: number): Promise<{ entries: AuditEntryRow[]; total: number }>;
}

export class AdminAuditRepository implements AdminAuditStore {
  constructor(private readonly db: Db) {}

  async record(entry: AuditEntryInput, at: Date, db: Db = this.db): Promise<void> {
    await db.insert(adminAuditLog).values({ ...entry, createdAt: at });
  }

  async page(offset: number, limit: number) {
    const [rows, [totals]] = await Promise.all([
      this.db
        .select({
          entry: adminAuditLog,
          admin: { id: admins.id, email: admins.email, name: admins.name },
        })
        .from(adminAuditLog)
        .leftJoin(admins, eq(admins.id, adminAuditLog.adminId))
        .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(adminAuditLog),
    ]);
    return {
      entries: rows.map(({ entry, admin }) => ({ ...entry, admin })),
      total: totals?.total ?? 0,
    };
  }
}
