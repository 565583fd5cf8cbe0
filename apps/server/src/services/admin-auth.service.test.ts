import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AdminAuditStore, AuditEntryInput } from '../repositories/admin-audit.repository';
import type {
  AdminRow,
  AdminSessionRow,
  AdminSessionsStore,
  AdminsStore,
} from '../repositories/admins.repository';
import { CredentialsCipher, type CredentialsKey } from '../repositories/credentials-cipher';
import type { PasswordHasher } from '../repositories/password-hasher';
import { Secrets } from '../repositories/secrets';
import type { Totp } from '../repositories/totp';
import { TotpSecretSealer } from '../repositories/totp-secret-sealer';
import {
  AdminCodeIncorrect,
  AdminCredentialsInvalid,
  AdminSessionUnknown,
} from './admin-auth.errors';
import { AdminAuthService, adminSessionPolicy } from './admin-auth.service';

const start = new Date('2026-11-21T12:00:00Z');
const password = 'Soporte segura 2026';
/** The authenticator's secret, and the code it shows now (time step 1000). */
const totpSecret = 'JBSWY3DPEHPK3PXP';
const goodCode = '123456';
const goodStep = 1_000;
const keyOf = (id: string): CredentialsKey => ({ id, key: randomBytes(32) });
const oldKey = keyOf('k1');
const newKey = keyOf('k2');

/** The service with plain stubs: the sessions, audit entries and admin rows as stored. */
function rig(
  options: {
    userTokens?: string[];
    /** Runs once the secrets to reseal were read: another process writing meanwhile. */
    afterTotpRead?: (admins: AdminRow[]) => void;
  } = {},
) {
  const secrets = new Secrets('pepper');
  const sealer = new TotpSecretSealer(new CredentialsCipher([oldKey, newKey]));
  const sealed = sealer.seal('a1', totpSecret);
  const admin: AdminRow = {
    id: 'a1',
    email: 'soporte@tradebot.example',
    name: 'Soporte',
    passwordHash: `hashed:${password}`,
    totpSecret: sealed.ciphertext,
    totpKeyId: sealed.keyId,
    lastTotpStep: null,
    createdAt: start,
  };
  const admins: AdminRow[] = [admin];
  const sessions: (AdminSessionRow & { tokenHash: string })[] = [];
  const entries: { entry: AuditEntryInput; at: Date }[] = [];
  const calls: string[] = [];
  const verified: string[] = [];
  let now = start;
  const adminsStore: AdminsStore = {
    create: () => Promise.reject(new Error('not created here')),
    findByEmail: (email) =>
      Promise.resolve(admins.find((admin) => admin.email === email.trim().toLowerCase())),
    useTotpStep: (adminId, step) => {
      const admin = admins.find((row) => row.id === adminId);
      if (!admin || (admin.lastTotpStep !== null && step <= admin.lastTotpStep)) {
        return Promise.resolve(false);
      }
      admin.lastTotpStep = step;
      return Promise.resolve(true);
    },
    totpNotSealedWith: (keyId) => {
      const read = admins.filter((admin) => admin.totpKeyId !== keyId).map((a) => ({ ...a }));
      options.afterTotpRead?.(admins);
      return Promise.resolve(read);
    },
    withSealedTotp: () => Promise.resolve(admins.filter((admin) => admin.totpKeyId !== null)),
    resealTotp: (adminId, from, to) => {
      const row = admins.find((stored) => stored.id === adminId);
      if (row?.totpSecret !== from.totpSecret || row.totpKeyId !== from.totpKeyId) {
        return Promise.resolve(false);
      }
      row.totpSecret = to.ciphertext;
      row.totpKeyId = to.keyId;
      return Promise.resolve(true);
    },
  };
  const sessionsStore: AdminSessionsStore = {
    create: (adminId, tokenHash, expiresAt) => {
      sessions.push({
        id: `s${String(sessions.length + 1)}`,
        adminId,
        tokenHash,
        createdAt: now,
        secondFactorAt: null,
        failedCodes: 0,
        expiresAt,
        revokedAt: null,
      });
      return Promise.resolve();
    },
    findActive: (tokenHash, at) => {
      calls.push('findActive');
      const session = sessions.find(
        (row) => row.tokenHash === tokenHash && row.revokedAt === null && row.expiresAt > at,
      );
      const admin = admins.find((row) => row.id === session?.adminId);
      return Promise.resolve(session && admin ? { session: { ...session }, admin } : undefined);
    },
    completeSecondFactor: (sessionId, at, expiresAt) => {
      calls.push(`completeSecondFactor ${sessionId}`);
      const session = sessions.find((row) => row.id === sessionId);
      if (session) Object.assign(session, { secondFactorAt: at, expiresAt });
      return Promise.resolve();
    },
    recordFailedCode: (sessionId) => {
      const session = sessions.find((row) => row.id === sessionId);
      if (!session) throw new Error('no session');
      session.failedCodes++;
      return Promise.resolve(session.failedCodes);
    },
    revoke: (sessionId, at) => {
      calls.push(`revoke ${sessionId}`);
      const session = sessions.find((row) => row.id === sessionId);
      if (session) session.revokedAt = at;
      return Promise.resolve();
    },
  };
  const audit: AdminAuditStore = {
    record: (entry, at) => {
      entries.push({ entry, at });
      return Promise.resolve();
    },
    page: () => Promise.reject(new Error('not read here')),
  };
  const hasher: PasswordHasher = {
    hash: (text) => Promise.resolve(`hashed:${text}`),
    verify: (hash, text) => {
      verified.push(hash);
      return Promise.resolve(hash === `hashed:${text}`);
    },
  };
  const totp: Totp = {
    newSecret: () => 'NEWSECRET',
    uri: (label, secret) => `otpauth://totp/${label}?secret=${secret}`,
    verify: (secret, code, _at, afterStep) =>
      Promise.resolve(
        secret === totpSecret && code === goodCode && (afterStep === null || goodStep > afterStep)
          ? goodStep
          : undefined,
      ),
  };
  const service = new AdminAuthService(
    adminsStore,
    sessionsStore,
    audit,
    hasher,
    secrets,
    totp,
    sealer,
    { now: () => now },
    (token) => {
      calls.push('isUserToken');
      return Promise.resolve(options.userTokens?.includes(token) ?? false);
    },
  );
  const later = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  /** Signs in with the password: the token of the session waiting for its code. */
  const firstStep = async () =>
    (await service.login('soporte@tradebot.example', password, '203.0.113.7')).token;
  return {
    service,
    secrets,
    sealer,
    admin,
    admins,
    sessions,
    entries,
    calls,
    verified,
    later,
    firstStep,
  };
}

const failure = (
  reason: string,
  extra: Record<string, unknown> = {},
  adminId: string | null = 'a1',
) => ({
  adminId,
  action: 'admin.sign_in_failed',
  targetType: 'admin_sign_in',
  targetId: null,
  before: null,
  after: { reason, address: '203.0.113.7', ...extra },
});

describe('AdminAuthService.login', () => {
  it('opens a session that only the TOTP code can complete, for five minutes, storing the token hashed', async () => {
    const { service, secrets, sessions, entries } = rig();

    const { token } = await service.login('soporte@tradebot.example', password, '203.0.113.7');

    expect(sessions).toEqual([
      expect.objectContaining({
        adminId: 'a1',
        tokenHash: secrets.hash(token),
        secondFactorAt: null,
        expiresAt: new Date(start.getTime() + adminSessionPolicy.secondFactorWindowMs),
      }),
    ]);
    expect(adminSessionPolicy.secondFactorWindowMs).toBe(5 * 60_000);
    expect(JSON.stringify(sessions)).not.toContain(token);
    // Not signed in yet: the audit log records the sign-in when the code is given.
    expect(entries).toEqual([]);
  });

  it('refuses a wrong password, audits it with the admin named and never the password', async () => {
    const { service, sessions, entries } = rig();

    await expect(
      service.login('soporte@tradebot.example', 'Contraseña equivocada 1', '203.0.113.7'),
    ).rejects.toBeInstanceOf(AdminCredentialsInvalid);

    expect(sessions).toEqual([]);
    expect(entries).toEqual([{ entry: failure('wrong_password'), at: start }]);
    expect(JSON.stringify(entries)).not.toContain('equivocada');
  });

  it('answers an unknown e-mail as a wrong password, after verifying a hash, and audits only a digest of the e-mail', async () => {
    const { service, secrets, sessions, entries, verified } = rig();

    const refusal = await service
      .login('Mi-Clave-Secreta@example.com', password, '203.0.113.7')
      .catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(AdminCredentialsInvalid);
    expect(verified).toEqual(['hashed:dummy-password-1']);
    expect(sessions).toEqual([]);
    const digest = secrets.hash('admin-sign-in-email\nmi-clave-secreta@example.com').slice(0, 16);
    expect(entries).toEqual([
      { entry: failure('unknown_email', { emailDigest: digest }, null), at: start },
    ]);
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(entries).toLowerCase()).not.toContain('clave');
    expect(JSON.stringify(entries)).not.toContain(password);
  });

  it('shows the same digest for the same e-mail however it was typed', async () => {
    const { service, entries } = rig();

    await service.login(' Nadie@Example.com ', password, '203.0.113.7').catch(() => undefined);
    await service.login('nadie@example.com', password, '203.0.113.7').catch(() => undefined);
    await service.login('otro@example.com', password, '203.0.113.7').catch(() => undefined);

    const digests = entries.map((item) => item.entry.after?.emailDigest);
    expect(digests[0]).toBe(digests[1]);
    expect(digests[2]).not.toBe(digests[0]);
  });
});

describe('AdminAuthService.secondFactor', () => {
  it('turns the session into an eight-hour working session and audits the sign-in', async () => {
    const { service, firstStep, sessions, entries, admins, later } = rig();
    const token = await firstStep();
    later(60_000);
    const at = new Date(start.getTime() + 60_000);
    const expiresAt = new Date(at.getTime() + adminSessionPolicy.lifetimeMs);

    const session = await service.secondFactor(token, goodCode, '203.0.113.7');

    expect(session).toEqual({
      admin: { id: 'a1', email: 'soporte@tradebot.example', name: 'Soporte' },
      expiresAt: expiresAt.toISOString(),
    });
    expect(sessions[0]).toMatchObject({ secondFactorAt: at, expiresAt });
    expect(admins[0]?.lastTotpStep).toBe(goodStep);
    expect(entries).toEqual([
      {
        entry: {
          adminId: 'a1',
          action: 'admin.signed_in',
          targetType: 'admin_session',
          targetId: 's1',
          before: null,
          after: { expiresAt: expiresAt.toISOString() },
        },
        at,
      },
    ]);
    expect(adminSessionPolicy.lifetimeMs).toBe(8 * 3_600_000);
  });

  it('answers the admin profile alone: no password hash, no TOTP secret', async () => {
    const { service, firstStep, admins } = rig();

    const session = await service.secondFactor(await firstStep(), goodCode, '203.0.113.7');

    const answer = JSON.stringify(session);
    expect(answer).not.toContain(admins[0]?.passwordHash);
    expect(answer).not.toContain(admins[0]?.totpSecret);
    expect(answer).not.toContain(totpSecret);
  });

  it('refuses a wrong code: counts it, audits it without the code, and leaves the session waiting', async () => {
    const { service, firstStep, sessions, entries, calls } = rig();
    const token = await firstStep();

    const refusal = await service
      .secondFactor(token, '654321', '203.0.113.7')
      .catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(AdminCodeIncorrect);
    expect((refusal as AdminCodeIncorrect).field).toBe('code');
    expect(sessions[0]).toMatchObject({ failedCodes: 1, secondFactorAt: null, revokedAt: null });
    expect(calls).not.toContain('completeSecondFactor s1');
    expect(entries).toEqual([{ entry: failure('wrong_code'), at: start }]);
    expect(JSON.stringify(entries)).not.toContain('654321');
  });

  it('accepts a code once: the same code on another session is refused', async () => {
    const { service, firstStep, sessions } = rig();
    await service.secondFactor(await firstStep(), goodCode, '203.0.113.7');

    const second = await firstStep();
    await expect(service.secondFactor(second, goodCode, '203.0.113.7')).rejects.toBeInstanceOf(
      AdminCodeIncorrect,
    );
    expect(sessions[1]).toMatchObject({ failedCodes: 1, secondFactorAt: null });
  });

  it('ends the session at the fifth wrong code, not before', async () => {
    const { service, firstStep, sessions } = rig();
    const token = await firstStep();

    for (let attempt = 1; attempt < adminSessionPolicy.maxWrongCodes; attempt++) {
      await service.secondFactor(token, '000000', '203.0.113.7').catch(() => undefined);
    }
    expect(sessions[0]?.revokedAt).toBeNull();
    await service.secondFactor(token, '000000', '203.0.113.7').catch(() => undefined);
    expect(sessions[0]?.revokedAt).toEqual(start);

    // Ended: even the right code no longer completes it.
    await expect(service.secondFactor(token, goodCode, '203.0.113.7')).rejects.toBeInstanceOf(
      AdminSessionUnknown,
    );
    expect(adminSessionPolicy.maxWrongCodes).toBe(5);
  });

  it('refuses an unknown or expired first-step session, auditing nothing', async () => {
    const { service, firstStep, entries, later } = rig();

    await expect(
      service.secondFactor('c'.repeat(43), goodCode, '203.0.113.7'),
    ).rejects.toBeInstanceOf(AdminSessionUnknown);
    const token = await firstStep();
    later(adminSessionPolicy.secondFactorWindowMs);
    await expect(service.secondFactor(token, goodCode, '203.0.113.7')).rejects.toBeInstanceOf(
      AdminSessionUnknown,
    );
    expect(entries).toEqual([]);
  });

  it('answers a completed session as it stands, verifying and writing nothing', async () => {
    const { service, firstStep, entries, calls, admins } = rig();
    const token = await firstStep();
    const first = await service.secondFactor(token, goodCode, '203.0.113.7');
    const step = admins[0]?.lastTotpStep;
    calls.length = 0;

    const again = await service.secondFactor(token, 'anything', '203.0.113.7');

    expect(again).toEqual(first);
    expect(calls).toEqual(['findActive']);
    expect(entries).toHaveLength(1);
    expect(admins[0]?.lastTotpStep).toBe(step);
  });
});

describe('AdminAuthService.signInRefused', () => {
  it('audits a rate-limited sign-in: the admin when the e-mail is one, else its digest', async () => {
    const { service, secrets, entries } = rig();

    await service.signInRefused('soporte@tradebot.example', '203.0.113.7');
    await service.signInRefused('nadie@example.com', '203.0.113.7');

    const digest = secrets.hash('admin-sign-in-email\nnadie@example.com').slice(0, 16);
    expect(entries.map((item) => item.entry)).toEqual([
      failure('rate_limited'),
      failure('rate_limited', { emailDigest: digest }, null),
    ]);
  });
});

describe('AdminAuthService.authenticate', () => {
  it('tells an admin session from one still waiting for its code', async () => {
    const { service, firstStep } = rig();
    const token = await firstStep();

    expect(await service.authenticate(token)).toEqual({ kind: 'second-factor-missing' });
    await service.secondFactor(token, goodCode, '203.0.113.7');
    expect(await service.authenticate(token)).toMatchObject({
      kind: 'admin',
      sessionId: 's1',
      admin: { id: 'a1' },
      expiresAt: new Date(start.getTime() + adminSessionPolicy.lifetimeMs),
    });
  });

  it("answers 'user' for a user's live session and 'none' for anything else", async () => {
    const userToken = 'u'.repeat(43);
    const { service, calls } = rig({ userTokens: [userToken] });

    expect(await service.authenticate(userToken)).toEqual({ kind: 'user' });
    expect(await service.authenticate('n'.repeat(43))).toEqual({ kind: 'none' });
    expect(calls).toEqual(['findActive', 'isUserToken', 'findActive', 'isUserToken']);
  });

  it('reads nothing for a token shorter than 20 or longer than 200 characters', async () => {
    const { service, calls } = rig({ userTokens: ['u'.repeat(19), 'u'.repeat(201)] });

    expect(await service.authenticate('u'.repeat(19))).toEqual({ kind: 'none' });
    expect(await service.authenticate('u'.repeat(201))).toEqual({ kind: 'none' });
    expect(calls).toEqual([]);
  });
});

describe('AdminAuthService.logout', () => {
  it('revokes the session and audits the sign-out', async () => {
    const { service, firstStep, admin, sessions, entries, calls } = rig();
    const token = await firstStep();
    await service.secondFactor(token, goodCode, '203.0.113.7');

    await service.logout(admin, 's1');

    expect(sessions[0]?.revokedAt).toEqual(start);
    expect(calls.at(-1)).toBe('revoke s1');
    expect(entries.at(-1)).toEqual({
      entry: {
        adminId: 'a1',
        action: 'admin.signed_out',
        targetType: 'admin_session',
        targetId: 's1',
        before: null,
        after: null,
      },
      at: start,
    });
    expect(await service.authenticate(token)).toEqual({ kind: 'none' });
  });
});

describe('AdminAuthService.sealTotpSecrets', () => {
  it('seals with the newest key the secrets in clear or under an older key; the code still works', async () => {
    const { service, admin, admins, sealer, firstStep } = rig();
    const olderSealer = new TotpSecretSealer(new CredentialsCipher([oldKey]));
    const underOldKey = olderSealer.seal('a1', totpSecret);
    Object.assign(admin, { totpSecret: underOldKey.ciphertext, totpKeyId: underOldKey.keyId });
    const inClear: AdminRow = {
      ...admin,
      id: 'a2',
      email: 'otro@tradebot.example',
      totpSecret: 'CLEARSECRET',
      totpKeyId: null,
    };
    admins.push(inClear);

    expect(await service.sealTotpSecrets()).toBe(2);

    expect(admins.map((admin) => admin.totpKeyId)).toEqual(['k2', 'k2']);
    expect(inClear.totpSecret).not.toBe('CLEARSECRET');
    expect(sealer.open('a2', inClear)).toBe('CLEARSECRET');
    expect(sealer.open('a1', admin)).toBe(totpSecret);
    await expect(
      service.secondFactor(await firstStep(), goodCode, '203.0.113.7'),
    ).resolves.toBeDefined();
    expect(await service.sealTotpSecrets()).toBe(0);
  });

  it('does not count, nor overwrite, a secret that changed while it was being resealed', async () => {
    const { service, admin } = rig({
      afterTotpRead: (rows) => {
        for (const row of rows) Object.assign(row, { totpSecret: 'CHANGED', totpKeyId: 'k2' });
      },
    });
    Object.assign(admin, { totpSecret: 'CLEARSECRET', totpKeyId: null });

    expect(await service.sealTotpSecrets()).toBe(0);

    expect(admin).toMatchObject({ totpSecret: 'CHANGED', totpKeyId: 'k2' });
  });
});
