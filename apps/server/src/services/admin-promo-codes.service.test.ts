import { describe, expect, it } from 'vitest';
import type { AdminAuditStore, AuditEntryInput } from '../repositories/admin-audit.repository';
import type { AdminPromoCodesStore } from '../repositories/admin-promo-codes.repository';
import type { AdminRow } from '../repositories/admins.repository';
import type { PromoCodeRow } from '../repositories/promo-codes.repository';
import type { Tx } from '../repositories/transaction';
import { PromoCodeEnded, PromoCodeNotFound, PromoCodeTaken } from './admin-promo-codes.errors';
import { AdminPromoCodesService, promoCodeState } from './admin-promo-codes.service';

// Decision 059: the console creates and retires promotional codes, each change audited in the
// same transaction as the change itself.
const now = new Date('2026-11-27T12:00:00.000Z');
const admin = { id: 'a1' } as AdminRow;
const day = 86_400_000;
const at = (offsetDays: number) => new Date(now.getTime() + offsetDays * day);

function row(overrides: Partial<PromoCodeRow> = {}): PromoCodeRow {
  return {
    code: 'MESGRATIS',
    benefit: 'free_month',
    validFrom: at(-10),
    validUntil: null,
    maxUses: null,
    uses: 0,
    createdAt: at(-10),
    ...overrides,
  };
}

/** Plain stubs: one code store, an audit log, and a transaction that is a marker. */
function rig(codes: PromoCodeRow[]) {
  const audited: { entry: AuditEntryInput; tx: unknown }[] = [];
  const tx = { transaction: 'tx1' } as unknown as Tx;
  const store: AdminPromoCodesStore = {
    all: () => Promise.resolve(codes),
    find: (code) => Promise.resolve(codes.find((one) => one.code === code)),
    create: (code, db) => {
      expect(db).toBe(tx);
      if (codes.some((one) => one.code === code.code)) return Promise.resolve(undefined);
      const created = row({ ...code, uses: 0 });
      codes.push(created);
      return Promise.resolve(created);
    },
    retire: (code, when, db) => {
      expect(db).toBe(tx);
      const found = codes.find((one) => one.code === code);
      if (!found || (found.validUntil && found.validUntil <= when))
        return Promise.resolve(undefined);
      return Promise.resolve({ ...found, validUntil: when });
    },
    usesOf: () => Promise.resolve([]),
  };
  const audit: AdminAuditStore = {
    record: (entry, _at, db) => {
      audited.push({ entry, tx: db });
      return Promise.resolve();
    },
    page: () => Promise.resolve({ entries: [], total: 0 }),
  };
  const service = new AdminPromoCodesService(store, audit, { now: () => now }, (work) => work(tx));
  return { service, audited, tx };
}

describe('promoCodeState', () => {
  it('is scheduled, active, exhausted or ended, ending at its last instant', () => {
    expect(promoCodeState(row({ validFrom: at(1) }), now)).toBe('scheduled');
    expect(promoCodeState(row(), now)).toBe('active');
    expect(promoCodeState(row({ maxUses: 3, uses: 3 }), now)).toBe('exhausted');
    expect(promoCodeState(row({ maxUses: 3, uses: 2 }), now)).toBe('active');
    expect(promoCodeState(row({ validUntil: now }), now)).toBe('ended');
    expect(promoCodeState(row({ validUntil: new Date(now.getTime() + 1) }), now)).toBe('active');
  });
});

describe('AdminPromoCodesService', () => {
  it('creates a code in capitals and audits it in the same transaction', async () => {
    const { service, audited, tx } = rig([]);
    const created = await service.create(admin, {
      code: ' verano26 ',
      benefit: 'free_month',
      validFrom: at(1).toISOString(),
      validUntil: null,
      maxUses: 100,
    });
    expect(created).toMatchObject({ code: 'VERANO26', state: 'scheduled', maxUses: 100 });
    expect(audited).toHaveLength(1);
    expect(audited[0]?.tx).toBe(tx);
    expect(audited[0]?.entry).toMatchObject({
      adminId: 'a1',
      action: 'promo_code.created',
      targetId: 'VERANO26',
      before: null,
      after: { state: 'scheduled', maxUses: 100 },
    });
  });

  it('refuses a code that exists (whatever its case), auditing nothing', async () => {
    const { service, audited } = rig([row()]);
    await expect(
      service.create(admin, {
        code: 'mesgratis',
        benefit: 'free_month',
        validFrom: now.toISOString(),
        validUntil: null,
        maxUses: null,
      }),
    ).rejects.toBeInstanceOf(PromoCodeTaken);
    expect(audited).toEqual([]);
  });

  it('retires a code now, auditing its state before and after; refuses unknown or ended codes', async () => {
    const { service, audited } = rig([row(), row({ code: 'OLD', validUntil: at(-1) })]);
    const retired = await service.retire(admin, 'mesgratis');
    expect(retired).toMatchObject({ code: 'MESGRATIS', state: 'ended' });
    expect(audited[0]?.entry).toMatchObject({
      action: 'promo_code.retired',
      before: { state: 'active', validUntil: null },
      after: { state: 'ended', validUntil: now.toISOString() },
    });
    await expect(service.retire(admin, 'NOPE')).rejects.toBeInstanceOf(PromoCodeNotFound);
    await expect(service.retire(admin, 'old')).rejects.toBeInstanceOf(PromoCodeEnded);
    expect(audited).toHaveLength(1);
  });
});
