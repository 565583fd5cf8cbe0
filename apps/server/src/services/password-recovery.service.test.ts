import { describe, expect, it } from 'vitest';
import type { Mailer } from '../repositories/mail.repository';
import type { PasswordResetStore } from '../repositories/password-reset.repository';
import { Secrets } from '../repositories/secrets';
import type { UserRow, UsersStore } from '../repositories/users.repository';
import { PasswordRecoveryService } from './password-recovery.service';

const known = { id: 'u1', email: 'maria@example.com', name: 'María' } as UserRow;

/** Stubs that record every call: the work a request does, in order. */
function recordingService() {
  const work: string[] = [];
  const failures: unknown[] = [];
  const users = {
    findByEmail: (email: string) => {
      work.push('findByEmail');
      return Promise.resolve(email === known.email ? known : undefined);
    },
  } as unknown as UsersStore;
  const codes = {
    replaceCode: () => {
      work.push('replaceCode');
      return Promise.resolve();
    },
  } as unknown as PasswordResetStore;
  const mailer: Mailer = {
    send: () => {
      work.push('send');
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
  const service = new PasswordRecoveryService(
    users,
    codes,
    { hash: () => Promise.resolve(''), verify: () => Promise.resolve(false) },
    new Secrets(),
    mailer,
    { now: () => new Date('2026-11-21T12:00:00Z') },
    (error) => failures.push(error),
  );
  return { service, work, failures };
}

describe('PasswordRecoveryService.requestCode (issue 11, finding 5)', () => {
  it('does the same work before answering whether or not the e-mail has an account: none', () => {
    for (const email of [known.email, 'nadie@example.com']) {
      const { service, work } = recordingService();
      service.requestCode(email, 'es');
      // requestCode has returned: the answer goes out now.
      expect(work, email).toEqual([]);
    }
  });

  it('then looks the user up, stores a code and mails it, only for a real account', async () => {
    const registered = recordingService();
    registered.service.requestCode(known.email, 'es');
    await registered.service.settled();
    expect(registered.work).toEqual(['findByEmail', 'replaceCode', 'send']);

    const unknown = recordingService();
    unknown.service.requestCode('nadie@example.com', 'es');
    await unknown.service.settled();
    expect(unknown.work).toEqual(['findByEmail']);
  });

  it('reports a failure after the answer instead of losing it', async () => {
    const { service, failures } = recordingService();
    const broken = new Error('database down');
    (service as unknown as { users: UsersStore }).users.findByEmail = () => Promise.reject(broken);
    service.requestCode(known.email, 'es');
    await service.settled();
    expect(failures).toEqual([broken]);
  });
});
