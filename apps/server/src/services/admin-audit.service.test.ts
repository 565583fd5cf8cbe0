import { adminPageSize } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import type { AdminAuditStore, AuditEntryRow } from '../repositories/admin-audit.repository';
import { AdminAuditService } from './admin-audit.service';

const entry: AuditEntryRow = {
  id: 'e1',
  createdAt: new Date('2026-11-21T12:00:00.000Z'),
  adminId: 'a1',
  admin: { id: 'a1', email: 'soporte@tradebot.example', name: 'Soporte' },
  action: 'promo_code.created',
  targetType: 'promo_code',
  targetId: 'HOLA30',
  before: null,
  after: { benefit: 'free_month' },
};

/** The service with a plain stub log: the pages it was asked for. */
function rig(entries: AuditEntryRow[], total = entries.length) {
  const asked: { offset: number; limit: number }[] = [];
  const audit: AdminAuditStore = {
    record: () => Promise.reject(new Error('nothing is written here')),
    page: (offset, limit) => {
      asked.push({ offset, limit });
      return Promise.resolve({ entries, total });
    },
  };
  return { service: new AdminAuditService(audit), asked };
}

describe('AdminAuditService.page', () => {
  it('answers a page of entries as the contract spells them, with the total', async () => {
    const { service, asked } = rig([entry], 41);

    expect(await service.page(20)).toEqual({
      entries: [
        {
          id: 'e1',
          at: '2026-11-21T12:00:00.000Z',
          admin: { id: 'a1', email: 'soporte@tradebot.example', name: 'Soporte' },
          action: 'promo_code.created',
          targetType: 'promo_code',
          targetId: 'HOLA30',
          before: null,
          after: { benefit: 'free_month' },
        },
      ],
      total: 41,
    });
    expect(asked).toEqual([{ offset: 20, limit: adminPageSize }]);
  });

  it('answers a failed sign-in with no admin, and the user’s own data export', async () => {
    const { service } = rig([
      { ...entry, adminId: null, admin: null, action: 'admin.sign_in_failed' },
      { ...entry, id: 'e2', adminId: null, admin: null, action: 'user.data_exported' },
    ]);

    const { entries } = await service.page(0);

    expect(entries.map((row) => [row.admin, row.action])).toEqual([
      [null, 'admin.sign_in_failed'],
      [null, 'user.data_exported'],
    ]);
  });

  it('fails on an action the contract does not know, rather than answering it', async () => {
    const { service } = rig([entry, { ...entry, id: 'e2', action: 'user.deleted_everything' }]);

    await expect(service.page(0)).rejects.toThrow('unknown audit action user.deleted_everything');
  });

  it('answers an empty page past the end', async () => {
    const { service } = rig([], 3);

    expect(await service.page(40)).toEqual({ entries: [], total: 3 });
  });
});
