import {
  adminAuditActions,
  adminPageSize,
  type AdminAuditAction,
  type AdminAuditEntry,
} from '@tradebot/contract';
import type { AdminAuditStore } from '../repositories/admin-audit.repository';

const isAuditAction = (value: string): value is AdminAuditAction =>
  (adminAuditActions as readonly string[]).includes(value);

/** Reads the audit log, newest first. */
export class AdminAuditService {
  constructor(private readonly audit: AdminAuditStore) {}

  async page(offset: number): Promise<{ entries: AdminAuditEntry[]; total: number }> {
    const page = await this.audit.page(offset, adminPageSize);
    return {
      entries: page.entries.map((entry) => {
        if (!isAuditAction(entry.action)) throw new Error(`unknown audit action ${entry.action}`);
        return {
          id: entry.id,
          at: entry.createdAt.toISOString(),
          admin: entry.admin,
          action: entry.action,
          targetType: entry.targetType,
          targetId: entry.targetId,
          before: entry.before,
          after: entry.after,
        };
      }),
      total: page.total,
    };
  }
}
