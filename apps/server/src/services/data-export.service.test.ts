import { describe, expect, it } from 'vitest';
import type { UserDataSections } from '../repositories/data-export.repository';
import { DataExportService, dataExportFormat } from './data-export.service';
import { DataExportUserGone } from './data-export.errors';

const at = new Date('2026-11-28T10:00:00Z');

const sections: UserDataSections = {
  profile: { name: 'Lucía', lastName: 'Pérez', email: 'lucia@example.com' },
  robotSettings: { botOn: true, risk: 1 },
  consents: [{ purpose: 'terms', granted: true }],
  sessions: [
    { id: 's1', device: 'Firefox' },
    { id: 's2', device: 'Chrome' },
  ],
  emailChanges: [],
  freeMonthForm: [],
  promoCodes: [],
  subscriptions: [{ plan: 'monthly', status: 'active' }],
  payments: [{ amountCents: 2900, currency: 'USD' }],
  brokerGifts: [],
  brokerLinks: [{ platform: 'robot' }],
  brokerAuthorizations: [],
  brokerUnlinks: [],
  platformAccount: { balanceCents: 1_000_000 },
  platformLogin: { email: 'lucia@example.com' },
  deposits: [{ cents: 1_000_000 }],
  operations: [{ positionId: 'P1' }, { positionId: 'P2' }, { positionId: 'P3' }],
  notificationSettings: { operations: true },
  pushSubscriptions: [],
  supportMessages: [{ subject: 'Hola', replies: [] }],
};

/** The service on plain stubs: what the audit was told. */
function rig(found: UserDataSections = sections) {
  const audited: unknown[] = [];
  const service = new DataExportService(
    { collect: (userId) => Promise.resolve(userId === 'lucia' ? found : undefined) },
    {
      exported: (userId, when, summary) => {
        audited.push({ userId, when, summary });
        return Promise.resolve();
      },
    },
    { now: () => at },
  );
  return { service, audited };
}

describe('DataExportService (decision 153)', () => {
  it('writes every section as one JSON file, named by its day, with a first line in the user language', async () => {
    const { service } = rig();
    const file = await service.export('lucia', 'pt');
    expect(file.fileName).toBe('tradebot-data-2026-11-28.json');
    const document = JSON.parse(file.body) as Record<string, unknown>;
    expect(document).toMatchObject({
      format: dataExportFormat,
      version: 1,
      generatedAt: '2026-11-28T10:00:00.000Z',
      ...sections,
    });
    expect(document.about).toMatch(/^Cópia dos dados pessoais que a Tradebot guarda sobre você/);
    const spanish = JSON.parse((await service.export('lucia', 'es')).body) as { about: string };
    expect(spanish.about).toMatch(/^Copia de los datos personales que Tradebot guarda sobre ti/);
  });

  it('records each export with its size and counts, never its content', async () => {
    const { service, audited } = rig();
    const file = await service.export('lucia', 'es');
    expect(audited).toEqual([
      {
        userId: 'lucia',
        when: at,
        summary: {
          bytes: Buffer.byteLength(file.body),
          counts: expect.objectContaining({
            sessions: 2,
            operations: 3,
            payments: 1,
            supportMessages: 1,
            emailChanges: 0,
          }) as unknown,
        },
      },
    ]);
    expect(JSON.stringify(audited)).not.toContain('lucia@example.com');
  });

  it('refuses a user who is gone, and records nothing', async () => {
    const { service, audited } = rig();
    await expect(service.export('bruno', 'es')).rejects.toThrow(DataExportUserGone);
    expect(audited).toEqual([]);
  });
});
