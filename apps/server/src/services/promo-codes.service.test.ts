import { describe, expect, it } from 'vitest';
import type {
  NewPromoCodeUse,
  PromoCodeRow,
  PromoCodesStore,
} from '../repositories/promo-codes.repository';
import type { Transact, Tx } from '../repositories/transaction';
import type { UserRow, UsersStore } from '../repositories/users.repository';
import type { PromoBenefits } from './promo-benefits';
import { PromoCodeInvalid } from './promo-codes.errors';
import { PromoCodesService } from './promo-codes.service';

const now = new Date('2026-11-26T12:00:00.000Z');
const trialEnd = new Date('2026-12-26T12:00:00.000Z');
const user = { id: 'u1', email: 'ana@example.com' } as UserRow;
/** The transaction handle the service passes through to the stores and never reads. */
const tx = Object.freeze(Object.create(null)) as Tx;

/** Plain stubs: a code book with uses left, the user's stored code, and what was written. */
function rig(options: { uses: Record<string, number>; userCode?: string | null }) {
  const uses = { ...options.uses };
  let userCode = options.userCode ?? null;
  const recorded: NewPromoCodeUse[] = [];
  const granted: string[] = [];
  const changed: string[] = [];
  let rolledBack = 0;
  const row = (code: string): PromoCodeRow => ({ code, benefit: 'free_month' }) as PromoCodeRow;
  const promoCodes: PromoCodesStore = {
    findUsable: (code) => Promise.resolve((uses[code] ?? 0) > 0 ? row(code) : undefined),
    redeem: (code) => {
      if ((uses[code] ?? 0) <= 0) return Promise.resolve(undefined);
      uses[code] = (uses[code] ?? 0) - 1;
      return Promise.resolve(row(code));
    },
    recordUse: (_db, use) => {
      recorded.push(use);
      return Promise.resolve();
    },
    upsert: () => Promise.reject(new Error('not written here')),
  };
  const users = {
    lockedPromocode: () => Promise.resolve(userCode),
    setPromocode: (_id: string, code: string) => {
      userCode = code;
      return Promise.resolve();
    },
    userChanged: (id: string) => {
      changed.push(id);
      return Promise.resolve();
    },
  } as unknown as UsersStore;
  // The transaction: its work's writes stand only if it returns; a throw rolls them back.
  const transact: Transact = async (work) => {
    const before = { uses: { ...uses }, userCode, recorded: recorded.length };
    try {
      return await work(tx);
    } catch (error) {
      Object.assign(uses, before.uses);
      userCode = before.userCode;
      recorded.length = before.recorded;
      rolledBack += 1;
      throw error;
    }
  };
  const benefits: PromoBenefits = {
    grant: (_tx, userId) => {
      granted.push(userId);
      return Promise.resolve({ trialEndsAt: trialEnd });
    },
    trialEnd: () => Promise.resolve(trialEnd),
    granted: () => Promise.resolve(),
  };
  const service = new PromoCodesService(promoCodes, users, transact, { now: () => now }, benefits);
  return {
    service,
    uses,
    recorded,
    granted,
    changed,
    userCode: () => userCode,
    rolledBack: () => rolledBack,
  };
}

describe('PromoCodesService', () => {
  it('validates a code with uses left, and refuses one without', async () => {
    const { service } = rig({ uses: { MESGRATIS: 1, AGOTADO: 0 } });
    await expect(service.validate('MESGRATIS')).resolves.toEqual({
      valid: true,
      benefit: 'free_month',
    });
    await expect(service.validate('AGOTADO')).resolves.toEqual({ valid: false, benefit: null });
  });

  it('applies a code once: one use taken, the user’s code set, the use recorded, the free month granted', async () => {
    const r = rig({ uses: { MESGRATIS: 5 } });
    const applied = await r.service.applyToUser(user, '  mesgratis ');
    expect(applied).toEqual({
      promocode: 'MESGRATIS',
      benefit: 'free_month',
      trialEndsAt: trialEnd.toISOString(),
    });
    expect(r.uses.MESGRATIS).toBe(4);
    expect(r.userCode()).toBe('MESGRATIS');
    expect(r.recorded).toEqual([
      { code: 'MESGRATIS', userId: 'u1', benefit: 'free_month', source: 'profile', usedAt: now },
    ]);
    expect(r.granted).toEqual(['u1']);
    expect(r.changed).toEqual(['u1']);
  });

  it('applying the code the user already has takes no second use and grants nothing again', async () => {
    const r = rig({ uses: { MESGRATIS: 5 }, userCode: 'MESGRATIS' });
    const applied = await r.service.applyToUser(user, 'MESGRATIS');
    expect(applied).toEqual({
      promocode: 'MESGRATIS',
      benefit: 'free_month',
      trialEndsAt: trialEnd.toISOString(),
    });
    expect(r.uses.MESGRATIS).toBe(5);
    expect(r.recorded).toEqual([]);
    expect(r.granted).toEqual([]);
  });

  it('a code with no use left is refused with the domain error, and nothing is written', async () => {
    const r = rig({ uses: { AGOTADO: 0 }, userCode: 'OTRO' });
    await expect(r.service.applyToUser(user, 'AGOTADO')).rejects.toBeInstanceOf(PromoCodeInvalid);
    expect(r.userCode()).toBe('OTRO');
    expect(r.recorded).toEqual([]);
    expect(r.changed).toEqual([]);
    expect(r.rolledBack()).toBe(1);
  });
});
