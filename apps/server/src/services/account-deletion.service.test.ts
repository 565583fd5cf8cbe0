import { describe, expect, it, vi } from 'vitest';
import type { MailMessage } from '../repositories/mail.repository';
import type { UserRow } from '../repositories/users.repository';
import { AccountDeletionService, anonymisedEmail } from './account-deletion.service';
import { WrongPassword } from './account-settings.errors';

const user = {
  id: 'u1',
  name: 'María',
  email: 'maria@example.com',
  language: 'es',
} as UserRow;
const now = new Date('2026-11-21T12:00:00Z');

/** Stubs that record each step; `failAt` makes that step throw. */
function recordingService(failAt?: string) {
  const steps: string[] = [];
  const mails: MailMessage[] = [];
  const step = (name: string) => {
    if (name === failAt) return Promise.reject(new Error(`${name} failed`));
    steps.push(name);
    return Promise.resolve();
  };
  const service = new AccountDeletionService({
    verifyPassword: (_userId, password, field) =>
      password === 'segura123' ? step('verifyPassword') : Promise.reject(new WrongPassword(field)),
    stopRobot: () => step('stopRobot'),
    endSubscriptions: () => step('endSubscriptions'),
    eraser: {
      eraseAccount: (userId, formerEmail, anonymised) => {
        expect(formerEmail).toBe('maria@example.com');
        expect(anonymised.email).toBe(anonymisedEmail(userId));
        expect(anonymised.passwordHash).toBe('hash:random-secret');
        return step('eraseAccount');
      },
    },
    hasher: {
      hash: (value) => Promise.resolve(`hash:${value}`),
      verify: () => Promise.resolve(false),
    },
    newSecret: () => 'random-secret',
    mailer: {
      send: (message) => {
        mails.push(message);
        return step('mail');
      },
      close: () => Promise.resolve(),
    },
    clock: { now: () => now },
    onSessionsRevoked: (revoked) => step(`sessionsRevoked ${JSON.stringify(revoked)}`),
    onUserChanged: () => step('userChanged'),
    onMailFailure: () => undefined,
  });
  return { service, steps, mails };
}

describe('AccountDeletionService', () => {
  it('does nothing at all for a wrong password', async () => {
    const { service, steps } = recordingService();
    await expect(service.deleteAccount(user, 'otra')).rejects.toBeInstanceOf(WrongPassword);
    expect(steps).toEqual([]);
  });

  it('stops the robot, ends the subscription, erases in one step, then drops sessions and mails', async () => {
    const { service, steps, mails } = recordingService();
    await service.deleteAccount(user, 'segura123');
    // The mail goes out after the answer, once it is rendered (decision 100).
    await vi.waitFor(() => {
      expect(mails).toHaveLength(1);
    });
    expect(steps).toEqual([
      'verifyPassword',
      'stopRobot',
      'endSubscriptions',
      'eraseAccount',
      'userChanged',
      'sessionsRevoked {"userId":"u1"}',
      'mail',
    ]);
    expect(mails[0]?.to).toBe('maria@example.com');
    expect(mails[0]?.subject).toBe('Eliminamos tu cuenta de Tradebot');
    expect(mails[0]?.text).toContain('10 años');
  });

  it.each(['stopRobot', 'endSubscriptions'])(
    'erases nothing when %s fails, so asking again finishes the job',
    async (failing) => {
      const { service, steps } = recordingService(failing);
      await expect(service.deleteAccount(user, 'segura123')).rejects.toThrow(failing);
      expect(steps).not.toContain('eraseAccount');
      expect(steps).not.toContain('mail');
    },
  );
});
