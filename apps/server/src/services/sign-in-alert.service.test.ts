import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../repositories/mail.repository';
import type { OncePerWindow } from '../repositories/once-per-window.repository';
import { SignInAlertService, signInAlertWindowMs } from './sign-in-alert.service';

const ana = { id: 'u1', email: 'ana@example.com', name: 'Ana', language: 'pt' };
const old = { id: 'u2', email: 'old@example.com', name: 'Old', language: 'xx' };
const boss = { id: 'a1', email: 'boss@example.com', name: 'Boss' };

/** Plain stubs: owners by e-mail, a window book held in memory, a mailer that may fail. */
function rig(options: { failMail?: boolean; supportEmail?: string | null } = {}) {
  const held = new Set<string>();
  const takes: { job: string; item: string; windowMs: number }[] = [];
  const sent: MailMessage[] = [];
  const told: string[] = [];
  const errors: unknown[] = [];
  const windows: OncePerWindow = {
    take: (job, item, windowMs) => {
      takes.push({ job, item, windowMs });
      if (held.has(item)) return Promise.resolve(undefined);
      held.add(item);
      return Promise.resolve({
        release: () => {
          held.delete(item);
          return Promise.resolve();
        },
      });
    },
  };
  const byEmail = (owners: (typeof boss)[]) => ({
    findByEmail: (email: string) => Promise.resolve(owners.find((o) => o.email === email)),
  });
  const service = new SignInAlertService({
    users: byEmail([ana, old]),
    admins: byEmail([boss]),
    windows,
    mailer: {
      send: (message) => {
        if (options.failMail) return Promise.reject(new Error('smtp down'));
        sent.push(message);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    },
    links: {
      forgotPassword: (language) => `https://tradebot.test/${language}/forgot-password`,
      signIn: (userId, language) =>
        Promise.resolve(`https://tradebot.test/${language}/login?sign_in_token=for-${userId}`),
      console: () => 'https://console.tradebot.test',
      contact: (language) => `https://tradebot.test/${language}/contact`,
      supportEmail:
        options.supportEmail === undefined ? 'support@tradebot.test' : options.supportEmail,
    },
    onSent: (kind, id) => told.push(`${kind}:${id}`),
    onError: (error) => errors.push(error),
  });
  return { service, held, takes, sent, told, errors };
}

describe('SignInAlertService (decision 079)', () => {
  it('warns a user once per window, with the forgot-password page in their language', async () => {
    const { service, takes, sent, told } = rig();
    service.signInsRefused('user', 'ana@example.com');
    service.signInsRefused('user', 'ana@example.com');
    await service.settled();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toBe('ana@example.com');
    expect(sent[0]?.text).toContain('https://tradebot.test/pt/forgot-password');
    // One sign-in link per mail, the user's (decision 130).
    expect(sent[0]?.text).toContain('https://tradebot.test/pt/login?sign_in_token=for-u1');
    expect(told).toEqual(['user:u1']);
    expect(takes[0]).toEqual({
      job: 'sign-in-alert',
      item: 'user:u1',
      windowMs: signInAlertWindowMs,
    });
  });

  it('falls back to Spanish for an unknown stored language, and sends admins to the console', async () => {
    const { service, sent, told } = rig();
    service.signInsRefused('user', 'old@example.com');
    service.signInsRefused('admin', 'boss@example.com');
    await service.settled();
    expect(sent.find((m) => m.to === 'old@example.com')?.text).toContain(
      'https://tradebot.test/es/forgot-password',
    );
    expect(sent.find((m) => m.to === 'boss@example.com')?.text).toContain(
      'https://console.tradebot.test',
    );
    // The console has no sign-in link (decision 130).
    expect(sent.find((m) => m.to === 'boss@example.com')?.text).not.toContain('sign_in_token');
    // Each is mailed on its own: a user's link is issued first, so the order may differ.
    expect(told.toSorted()).toEqual(['admin:a1', 'user:u2']);
  });

  it('names support’s address when there is one, and otherwise the contact form, never a made-up address (decision 156)', async () => {
    const given = rig();
    given.service.signInsRefused('user', 'ana@example.com');
    given.service.signInsRefused('admin', 'boss@example.com');
    await given.service.settled();
    for (const mail of given.sent) expect(mail.text).toContain('support@tradebot.test');
    expect(given.sent.find((m) => m.to === 'ana@example.com')?.text).not.toContain('/contact');

    const none = rig({ supportEmail: null });
    none.service.signInsRefused('user', 'ana@example.com');
    none.service.signInsRefused('user', 'old@example.com');
    none.service.signInsRefused('admin', 'boss@example.com');
    await none.service.settled();
    const text = (to: string) => none.sent.find((m) => m.to === to)?.text ?? '';
    expect(text('ana@example.com')).toContain(
      'escreva para nós pelo formulário de contato: https://tradebot.test/pt/contact',
    );
    expect(text('old@example.com')).toContain(
      'escríbenos desde el formulario de contacto: https://tradebot.test/es/contact',
    );
    // The console's admins are told to get a new password; there is no one else to name.
    expect(text('boss@example.com')).toContain('pide al responsable técnico que te dé una nueva.');
    for (const mail of none.sent) {
      expect(mail.text).not.toMatch(/@tradebot|null|undefined/);
      expect(mail.html).not.toMatch(/@tradebot|null|undefined/);
    }
  });

  it('keeps users and admins apart: an admin address is not looked up among users', async () => {
    const { service, takes, sent } = rig();
    service.signInsRefused('user', 'boss@example.com');
    service.signInsRefused('admin', 'ana@example.com');
    service.signInsRefused('user', 'nobody@example.com');
    await service.settled();
    expect(takes).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('gives the window back when the mail fails, so the next refusal tries again', async () => {
    const { service, held, told, errors } = rig({ failMail: true });
    service.signInsRefused('user', 'ana@example.com');
    await service.settled();
    expect(errors).toHaveLength(1);
    expect(told).toEqual([]);
    expect(held.has('user:u1')).toBe(false);
  });
});
