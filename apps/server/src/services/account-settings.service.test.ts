import { describe, expect, it, vi } from 'vitest';
import type { MailMessage } from '../repositories/mail.repository';
import type { ActiveSessionRow } from '../repositories/sessions.repository';
import type { UserRow } from '../repositories/users.repository';
import type { SessionsRevoked } from './auth.service';
import {
  CurrentSessionNotRevocable,
  SamePassword,
  SessionNotFound,
  WrongPassword,
} from './account-settings.errors';
import { AccountSettingsService } from './account-settings.service';

const user = {
  id: 'u1',
  name: 'María',
  lastName: 'Gonçalves',
  email: 'maria@example.com',
  phone: null,
  language: 'pt',
} as UserRow;
const now = new Date('2026-11-21T12:00:00Z');

/** Plain stubs that record what the service did, in order. */
function recordingService(sessions: ActiveSessionRow[] = []) {
  const work: string[] = [];
  const mails: MailMessage[] = [];
  const revoked: SessionsRevoked[] = [];
  const service = new AccountSettingsService({
    store: {
      passwordHashOf: () => Promise.resolve('hash:segura123'),
      changePassword: (_userId, hash, keep) => {
        work.push(`changePassword ${hash} keep ${keep}`);
        return Promise.resolve(['s2', 's3']);
      },
      updatePhone: (_userId, phone) => {
        work.push(`updatePhone ${String(phone)}`);
        return Promise.resolve();
      },
    },
    sessions: {
      listActive: () => Promise.resolve(sessions),
      revokeOwn: (_userId, sessionId) => Promise.resolve(sessionId === 's2'),
      revokeOthers: () => Promise.resolve(['s2']),
    },
    hasher: {
      hash: (password) => Promise.resolve(`hash:${password}`),
      verify: (hash, password) => Promise.resolve(hash === `hash:${password}`),
    },
    mailer: {
      send: (message) => {
        mails.push(message);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    },
    clock: { now: () => now },
    onSessionsRevoked: (change) => {
      revoked.push(change);
      return Promise.resolve();
    },
    onUserChanged: (userId) => {
      work.push(`userChanged ${userId}`);
      return Promise.resolve();
    },
    forgotPasswordUrl: (language) => `https://app.example/${language}/forgot-password`,
    onMailFailure: () => undefined,
  });
  return { service, work, mails, revoked };
}

describe('AccountSettingsService.changePassword', () => {
  it('refuses a wrong current password on its field, and changes nothing', async () => {
    const { service, work, mails } = recordingService();
    const error = await service
      .changePassword(user, 's1', { current_password: 'otra', password: 'nueva1234' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WrongPassword);
    expect((error as WrongPassword).field).toBe('current_password');
    expect(work).toEqual([]);
    expect(mails).toEqual([]);
  });

  it('refuses the current password as the new one', async () => {
    const { service } = recordingService();
    const error = await service
      .changePassword(user, 's1', { current_password: 'segura123', password: 'segura123' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SamePassword);
  });

  it('stores the new hash keeping this session, ends the others, then mails the owner in their language', async () => {
    const { service, work, mails, revoked } = recordingService();
    const result = await service.changePassword(user, 's1', {
      current_password: 'segura123',
      password: 'nueva1234',
    });
    expect(result).toEqual({ signedOut: 2 });
    expect(work).toEqual(['changePassword hash:nueva1234 keep s1', 'userChanged u1']);
    expect(revoked).toEqual([{ sessionId: 's2' }, { sessionId: 's3' }]);
    // The mail goes out after the answer, once it is rendered (decision 100).
    await vi.waitFor(() => {
      expect(mails).toHaveLength(1);
    });
    expect(mails[0]?.to).toBe('maria@example.com');
    expect(mails[0]?.subject).toBe('Você alterou a senha da Tradebot');
    expect(mails[0]?.text).toContain('https://app.example/pt/forgot-password');
    expect(mails[0]?.text).not.toContain('nueva1234');
  });
});

describe('AccountSettingsService, phone and sessions', () => {
  it('stores a trimmed phone, or none for an empty one, and drops cached copies', async () => {
    const { service, work } = recordingService();
    expect(await service.updatePhone(user, '  +55 11 91234-5678 ')).toBe('+55 11 91234-5678');
    expect(await service.updatePhone(user, '  ')).toBeNull();
    expect(work).toEqual([
      'updatePhone +55 11 91234-5678',
      'userChanged u1',
      'updatePhone null',
      'userChanged u1',
    ]);
  });

  it('lists this session first and reads the device from the User-Agent', async () => {
    const row = (id: string, userAgent: string | null): ActiveSessionRow => ({
      id,
      createdAt: now,
      lastUsedAt: null,
      expiresAt: new Date('2026-11-22T12:00:00Z'),
      userAgent,
    });
    const { service } = recordingService([
      row('s2', 'Mozilla/5.0 (Linux; Android 14) Chrome/121.0 Mobile Safari/537.36'),
      row('s1', null),
    ]);
    const listed = await service.sessions(user, 's1');
    expect(listed.map((session) => [session.id, session.current])).toEqual([
      ['s1', true],
      ['s2', false],
    ]);
    expect(listed[0]?.lastUsedAt).toBe(now.toISOString());
    expect(listed[1]?.device).toEqual({ browser: 'Chrome', os: 'Android', mobile: true });
  });

  it('ends another session, refuses this one and an unknown one', async () => {
    const { service, revoked } = recordingService();
    await service.signOutSession(user, 's1', 's2');
    expect(revoked).toEqual([{ sessionId: 's2' }]);
    await expect(service.signOutSession(user, 's1', 's1')).rejects.toBeInstanceOf(
      CurrentSessionNotRevocable,
    );
    await expect(service.signOutSession(user, 's1', 's9')).rejects.toBeInstanceOf(SessionNotFound);
    expect(await service.signOutOthers(user, 's1')).toBe(1);
  });
});
