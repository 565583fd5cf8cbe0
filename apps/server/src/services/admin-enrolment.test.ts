import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AdminRow, AdminsStore, NewAdmin } from '../repositories/admins.repository';
import { CredentialsCipher } from '../repositories/credentials-cipher';
import type { Totp } from '../repositories/totp';
import { TotpSecretSealer } from '../repositories/totp-secret-sealer';
import { AdminEnrolmentError, enrolAdmin, type NewAdminInput } from './admin-enrolment';

const input: NewAdminInput = {
  email: 'soporte@tradebot.example',
  name: 'Soporte',
  password: 'Soporte segura 2026',
};

/** enrolAdmin's ports as plain stubs: the admins it created. */
function rig(existing: string[] = []) {
  const created: NewAdmin[] = [];
  const admins = {
    findByEmail: (email: string) =>
      Promise.resolve(existing.includes(email) ? ({ email } as AdminRow) : undefined),
    create: (admin: NewAdmin) => {
      created.push(admin);
      return Promise.resolve({ ...admin, lastTotpStep: null, createdAt: new Date() } as AdminRow);
    },
  } as unknown as AdminsStore;
  const totp: Totp = {
    newSecret: () => 'JBSWY3DPEHPK3PXP',
    uri: (label, secret) => `otpauth://totp/${label}?secret=${secret}`,
    verify: () => Promise.resolve(undefined),
  };
  const sealer = new TotpSecretSealer(new CredentialsCipher([{ id: 'k1', key: randomBytes(32) }]));
  const enrol = (admin: NewAdminInput) =>
    enrolAdmin(
      admins,
      { hash: (text) => Promise.resolve(`hashed:${text}`), verify: () => Promise.resolve(false) },
      totp,
      sealer,
      admin,
    );
  return { enrol, created, sealer };
}

describe('enrolAdmin', () => {
  it('stores the password hashed and the TOTP secret sealed, and shows the secret once', async () => {
    const { enrol, created, sealer } = rig();

    const admin = await enrol(input);

    expect(admin).toEqual({
      id: created[0]?.id,
      email: 'soporte@tradebot.example',
      secret: 'JBSWY3DPEHPK3PXP',
      uri: 'otpauth://totp/soporte@tradebot.example?secret=JBSWY3DPEHPK3PXP',
    });
    const [row] = created;
    if (!row) throw new Error('no admin created');
    expect(row).toMatchObject({ name: 'Soporte', passwordHash: 'hashed:Soporte segura 2026' });
    expect(row.totpKeyId).toBe('k1');
    expect(row.totpSecret).not.toContain('JBSWY3DPEHPK3PXP');
    // Sealed with the admin's own id: it opens for that admin only.
    expect(sealer.open(admin.id, { totpKeyId: 'k1', totpSecret: row.totpSecret })).toBe(
      'JBSWY3DPEHPK3PXP',
    );
    expect(() => sealer.open('another', { totpKeyId: 'k1', totpSecret: row.totpSecret })).toThrow();
  });

  it.each([
    ['a password under 12 characters', { password: 'Corta12' }, 'password'],
    ['a password without a number', { password: 'Solo letras largas' }, 'password'],
    ['a password without a letter', { password: '123456789012' }, 'password'],
    ['a one-letter name', { name: ' A ' }, 'name'],
    ['an invalid e-mail', { email: 'soporte' }, 'email'],
  ])('refuses %s, naming the field, and creates nothing', async (_case, change, field) => {
    const { enrol, created } = rig();

    const refusal = await enrol({ ...input, ...change }).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(AdminEnrolmentError);
    expect((refusal as AdminEnrolmentError).problems.join(' ')).toMatch(new RegExp(`^${field}:`));
    expect(created).toEqual([]);
  });

  it('refuses an e-mail that is already an admin’s, and creates nothing', async () => {
    const { enrol, created } = rig(['soporte@tradebot.example']);

    await expect(enrol(input)).rejects.toThrow('email: an admin with soporte@tradebot.example');
    expect(created).toEqual([]);
  });

  it('never puts the password in a refusal', async () => {
    const { enrol } = rig();

    const refusal = await enrol({ ...input, password: 'x'.repeat(129) + '1' }).catch(
      (error: unknown) => error,
    );

    expect(refusal).toBeInstanceOf(AdminEnrolmentError);
    expect((refusal as Error).message).not.toContain('xxxx');
  });
});
