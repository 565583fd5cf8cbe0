import type { AdminPromoCode, PromoCodeState } from '@tradebot/contract';
import type { AdminAuditStore } from '../repositories/admin-audit.repository';
import type { AdminPromoCodesStore } from '../repositories/admin-promo-codes.repository';
import type { AdminRow } from '../repositories/admins.repository';
import type { Clock } from '../repositories/clock';
import { normalizePromocode, type PromoCodeRow } from '../repositories/promo-codes.repository';
import type { Transact } from '../repositories/transaction';
import { PromoCodeTaken, PromoCodeNotFound, PromoCodeEnded } from './admin-promo-codes.errors';

export interface NewPromoCodeInput {
  code: string;
  benefit: PromoCodeRow['benefit'];
  validFrom: string;
  validUntil: string | null;
  maxUses: number | null;
}

/** The same rule as PromoCodesRepository's `usableAt`, told as a state. */
export function promoCodeState(row: PromoCodeRow, now: Date): PromoCodeState {
  if (row.validFrom.getTime() > now.getTime()) return 'scheduled';
  if (row.validUntil && row.validUntil.getTime() <= now.getTime()) return 'ended';
  if (row.maxUses !== null && row.uses >= row.maxUses) return 'exhausted';
  return 'active';
}

function promoCodeOf(row: PromoCodeRow, now: Date): AdminPromoCode {
  return {
    code: row.code,
    benefit: row.benefit,
    validFrom: row.validFrom.toISOString(),
    validUntil: row.validUntil?.toISOString() ?? null,
    maxUses: row.maxUses,
    uses: row.uses,
    createdAt: row.createdAt.toISOString(),
    state: promoCodeState(row, now),
  };
}

/** What the audit log keeps of a code. */
const auditedState = (code: AdminPromoCode) => ({
  benefit: code.benefit,
  validFrom: code.validFrom,
  validUntil: code.validUntil,
  maxUses: code.maxUses,
  uses: code.uses,
  state: code.state,
});

const usesShown = 200;

/** Promotional codes from the console: create, retire, and see every use (decision 059). */
export class AdminPromoCodesService {
  constructor(
    private readonly codes: AdminPromoCodesStore,
    private readonly audit: AdminAuditStore,
    private readonly clock: Clock,
    private readonly transact: Transact,
  ) {}

  async list(): Promise<AdminPromoCode[]> {
    const now = this.clock.now();
    return (await this.codes.all()).map((row) => promoCodeOf(row, now));
  }

  async create(admin: AdminRow, input: NewPromoCodeInput): Promise<AdminPromoCode> {
    const now = this.clock.now();
    const code = normalizePromocode(input.code);
    return this.transact(async (tx) => {
      const row = await this.codes.create(
        {
          code,
          benefit: input.benefit,
          validFrom: new Date(input.validFrom),
          validUntil: input.validUntil === null ? null : new Date(input.validUntil),
          maxUses: input.maxUses,
          createdAt: now,
        },
        tx,
      );
      if (!row) throw new PromoCodeTaken();
      const created = promoCodeOf(row, now);
      await this.audit.record(
        {
          adminId: admin.id,
          action: 'promo_code.created',
          targetType: 'promo_code',
          targetId: code,
          before: null,
          after: auditedState(created),
        },
        now,
        tx,
      );
      return created;
    });
  }

  /** Ends the code's validity now; its past uses stay. */
  async retire(admin: AdminRow, code: string): Promise<AdminPromoCode> {
    const normalized = normalizePromocode(code);
    const current = await this.codes.find(normalized);
    if (!current) throw new PromoCodeNotFound();
    const now = this.clock.now();
    return this.transact(async (tx) => {
      const row = await this.codes.retire(normalized, now, tx);
      if (!row) throw new PromoCodeEnded();
      const retired = promoCodeOf(row, now);
      await this.audit.record(
        {
          adminId: admin.id,
          action: 'promo_code.retired',
          targetType: 'promo_code',
          targetId: normalized,
          before: auditedState(promoCodeOf(current, now)),
          after: auditedState(retired),
        },
        now,
        tx,
      );
      return retired;
    });
  }

  async uses(code: string) {
    const normalized = normalizePromocode(code);
    const row = await this.codes.find(normalized);
    if (!row) throw new PromoCodeNotFound();
    const history = await this.codes.usesOf(normalized, usesShown);
    return {
      uses: row.uses,
      history: history.map(({ use, user }) => ({
        id: use.id,
        usedAt: use.usedAt.toISOString(),
        benefit: use.benefit,
        source: use.source,
        user: { id: user.id, email: user.email, name: user.name, last_name: user.lastName },
        current: user.promocode === normalized,
      })),
    };
  }
}
