import { describe, expect, it } from 'vitest';
import type {
  EmailChangeRow,
  EmailChangesStore,
  NewEmailChange,
} from '../repositories/email-changes.repository';
import { DuplicateKey } from '../repositories/errors';
import type { MailMessage } from '../repositories/mail.repository';
import type { UserRow } from '../repositories/users.repository';
import { EmailLinkInvalid, EmailTaken, SameEmail } from './email-change.errors';
import { EmailChangeService } from './email-change.service';

// Decision 089: the address changes only through the link mailed to it; the old address is told
// at once with a link that undoes it; asking answers the same whether or not the new address
// has an account, and never stores a link's token, only its hash.
const now = new Date('2026-11-27T12:00:00.000Z');
const user = {
  id: 'u1',
  email: 'ana@example.com',
  name: 'Ana',
  language: 'es',
} as unknown as UserRow;
const hour = 3_600_000;

/** Plain stubs: a store that keeps what it is given, a mailer that keeps what it sends. */
function rig(options: { taken?: boolean; wrongPassword?: boolean; confirmThrows?: Error } = {}) {
  const added: NewEmailChange[] = [];
  const sent: MailMessage[] = [];
  const steps: string[] = [];
  let tokens = 0;
  const change = { id: 'c1', userId: 'u1', newEmail: 'new@example.com' } as EmailChangeRow;
  const store: EmailChangesStore = {
    add: (row) => {
      added.push(row);
      return Promise.resolve();
    },
    findConfirmable: (hash) => Promise.resolve(hash === 'hash(good)' ? change : undefined),
    confirm: () =>
      options.confirmThrows ? Promise.reject(options.confirmThrows) : Promise.resolve(['s2', 's3']),
    findUndoable: () => Promise.resolve(undefined),
    undo: () => Promise.resolve({ restored: true, ended: [] }),
  };
  const service = new EmailChangeService({
    store,
    accountWithEmail: (email) =>
      Promise.resolve(options.taken && email === 'new@example.com' ? { id: 'u2' } : undefined),
    verifyPassword: () => {
      steps.push('password');
      return options.wrongPassword
        ? Promise.reject(new Error('wrong password'))
        : Promise.resolve();
    },
    secrets: { newToken: () => `token${String(++tokens)}`, hash: (value) => `hash(${value})` },
    mailer: {
      send: (message) => {
        sent.push(message);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    },
    clock: { now: () => now },
    page: (language, path) => `https://app.test/${language}${path}`,
    onSessionsRevoked: (revoked) => {
      steps.push(`revoked ${'sessionId' in revoked ? revoked.sessionId : revoked.userId}`);
      return Promise.resolve();
    },
    onUserChanged: (userId) => {
      steps.push(`changed ${userId}`);
      return Promise.resolve();
    },
    onFailure: (error) => {
      throw error;
    },
  });
  return { service, added, sent, steps };
}

describe('EmailChangeService.request', () => {
  it('stores only hashes, a day for the link and a week to undo, and mails both addresses', async () => {
    const { service, added, sent } = rig();
    expect(
      await service.request(user, 's1', { email: ' new@example.com ', current_password: 'x' }),
    ).toEqual({ validHours: 24 });
    await service.settled();
    expect(added).toEqual([
      {
        userId: 'u1',
        oldEmail: 'ana@example.com',
        newEmail: 'new@example.com',
        tokenHash: 'hash(token1)',
        undoTokenHash: 'hash(token2)',
        sessionId: 's1',
        mailed: true,
        expiresAt: new Date(now.getTime() + 24 * hour),
        undoExpiresAt: new Date(now.getTime() + 7 * 24 * hour),
      },
    ]);
    expect(sent.map((mail) => mail.to)).toEqual(['new@example.com', 'ana@example.com']);
    // The link to confirm goes to the new address; the one to undo, to the old one.
    expect(sent[0]?.text).toContain('https://app.test/es/confirm-email?token=token1');
    expect(sent[1]?.text).toContain('https://app.test/es/confirm-email?undo_token=token2');
    expect(sent[0]?.text).not.toContain('undo_token');
  });

  it('answers the same for an address with an account, and mails it no link', async () => {
    const { service, added, sent } = rig({ taken: true });
    expect(
      await service.request(user, 's1', { email: 'new@example.com', current_password: 'x' }),
    ).toEqual({ validHours: 24 });
    await service.settled();
    expect(added[0]).toMatchObject({ newEmail: 'new@example.com', mailed: false });
    expect(sent.map((mail) => mail.to)).toEqual(['new@example.com', 'ana@example.com']);
    expect(sent[0]?.text).not.toContain('token=');
  });

  it('refuses the same address (whatever its case) and a wrong password, storing nothing', async () => {
    const same = rig();
    await expect(
      same.service.request(user, 's1', { email: 'ANA@example.com ', current_password: 'x' }),
    ).rejects.toBeInstanceOf(SameEmail);
    const wrong = rig({ wrongPassword: true });
    await expect(
      wrong.service.request(user, 's1', { email: 'new@example.com', current_password: 'y' }),
    ).rejects.toThrow('wrong password');
    for (const { service, added, sent } of [same, wrong]) {
      await service.settled();
      expect(added).toEqual([]);
      expect(sent).toEqual([]);
    }
  });
});

describe('EmailChangeService.confirm', () => {
  it('changes the address, then drops the cached user and ends the other sessions', async () => {
    const { service, steps } = rig();
    expect(await service.confirm('good')).toEqual({ email: 'new@example.com' });
    expect(steps).toEqual(['changed u1', 'revoked s2', 'revoked s3']);
  });

  it('refuses an unknown or spent link, and an address that got an account meanwhile', async () => {
    await expect(rig().service.confirm('bad')).rejects.toBeInstanceOf(EmailLinkInvalid);
    const raced = rig({ confirmThrows: new DuplicateKey() });
    await expect(raced.service.confirm('good')).rejects.toBeInstanceOf(EmailTaken);
    expect(raced.steps).toEqual([]);
  });
});
