import { describe, expect, it } from 'vitest';
import type { AdminAuditStore, AuditEntryInput } from '../repositories/admin-audit.repository';
import type { AdminUsersStore } from '../repositories/admin-users.repository';
import type { AdminRow } from '../repositories/admins.repository';
import type { ContactMessagesStore } from '../repositories/contact-messages.repository';
import type { SettingsRow, UserRow } from '../repositories/users.repository';
import {
  AdminUsersService,
  type BillingRecords,
  type GuaranteeDesk,
  type TradingDesk,
} from './admin-users.service';

const now = new Date('2026-11-10T12:00:00.000Z');
const until = new Date('2026-11-30T12:00:00.000Z');
const admin = { id: 'a1', email: 'soporte@example.com' } as AdminRow;
const listing = {
  user: { id: 'u1', email: 'ana@example.com', name: 'Ana', lastName: 'Paz' } as UserRow,
  settings: { userId: 'u1', authorized: true, linked: true } as SettingsRow,
};

/** The service with plain stubs: the audit entries it wrote, and a provider that fails. */
function rig(honourGuarantee: GuaranteeDesk['honourGuarantee']) {
  const entries: AuditEntryInput[] = [];
  const audit: AdminAuditStore = {
    record: (entry) => {
      entries.push(entry);
      return Promise.resolve();
    },
    page: () => Promise.reject(new Error('not read here')),
  };
  const users = { find: () => Promise.resolve(listing) } as unknown as AdminUsersStore;
  const billing: GuaranteeDesk = {
    guaranteeEligibility: () => Promise.resolve({ eligible: true, until }),
    honourGuarantee,
  };
  const records: BillingRecords = {
    subscriptionsOf: () => Promise.resolve([]),
    firstPayment: () => Promise.resolve(undefined),
  };
  const service = new AdminUsersService(
    users,
    {} as ContactMessagesStore,
    {} as TradingDesk,
    billing,
    records,
    audit,
    { now: () => now },
  );
  return { service, entries };
}

describe('AdminUsersService.refundGuarantee', () => {
  it('names the admin in the audit log before the provider is called, so a failure there leaves the request', async () => {
    const { service, entries } = rig(() => Promise.reject(new Error('provider unreachable')));

    await expect(service.refundGuarantee(admin, 'u1')).rejects.toThrow('provider unreachable');

    expect(entries).toEqual([
      {
        adminId: 'a1',
        action: 'guarantee.refund_requested',
        targetType: 'user',
        targetId: 'u1',
        before: {
          authorized: true,
          subscription: null,
          firstPayment: null,
          guaranteeUntil: until.toISOString(),
        },
        after: null,
      },
    ]);
  });
});
