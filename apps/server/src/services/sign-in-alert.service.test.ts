import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../repositories/mail.repository';
import type { OncePerWindow } from '../repositories/once-per-window.repository';
import { SignInAlertService, signInAlertWindowMs } from './sign-in-alert.service';

const ana = { id: 'u1', email: 'ana@example.com', name: 'Ana', language: 'pt' };
const old = { id: 'u2', email: 'old@example.com', name: 'Old', language: 'xx' };
const boss = { id: 'a1', email: 'boss@example.com', name: 'Boss' };

/** Plain stubs: owners by e-mail, a window book held in memory, a mailer that may fail. */
function rig(
  options: {
    failMail?: boolean;
    supportEmail?: string | null;
    /** The User-Agents of the user's recent sessions, the new one included. */
    userAgents?: (string | null)[];
    /** How many sessions the user ever had (the recent ones by default). */
    ever?: number;
  } = {},
) {
  const asked: { userId: string; since: Date }[] = [];
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
    findById: (id: string) => Promise.resolve(owners.find((o) => o.id === id)),
  });
  const service = new SignInAlertService({
    users: byEmail([ana, old]),
    admins: byEmail([boss]),
    windows,
    sessions: {
      devicesSince: (userId, since) => {
        asked.push({ userId, since });
        const recent = options.userAgents ?? [];
        return Promise.resolve({ recent, ever: options.ever ?? recent.length });
      },
    },
    clock: { now: () => new Date('2026-11-29T12:00:00Z') },
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
      settings: (language) => `https://tradebot.test/${language}/account-settings`,
      contact: (language) => `https://tradebot.test/${language}/contact`,
      supportEmail:
        options.supportEmail === undefined ? 'support@tradebot.test' : options.supportEmail,
    },
    onSent: (kind, id) => told.push(`${kind}:${id}`),
    onError: (error) => errors.push(error),
  });
  return { service, held, takes, sent, told, errors, asked };
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

const chromeOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const olderChromeOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('a sign-in from a new device (decision 163)', () => {
  it('tells the owner, in their language, which device, and what to do if it was not them', async () => {
    // Ana signed in before only on Chrome on Windows; now on an iPhone.
    const { service, sent, told, asked } = rig({
      userAgents: [chromeOnWindows, safariOnIphone],
    });
    service.signedIn('u1', safariOnIphone);
    await service.settled();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toBe('ana@example.com');
    expect(sent[0]?.subject).toBe('Novo acesso à sua conta da Tradebot');
    expect(sent[0]?.text).toContain('Safari no iOS (um celular ou tablet)');
    expect(sent[0]?.text).toContain('https://tradebot.test/pt/forgot-password');
    expect(sent[0]?.text).toContain('https://tradebot.test/pt/account-settings');
    expect(told).toEqual(['new-device:u1']);
    // Devices count for 180 days before now.
    expect(asked).toEqual([{ userId: 'u1', since: new Date('2026-06-02T12:00:00Z') }]);
  });

  it('says nothing for a device the owner used lately, whatever its version', async () => {
    const { service, sent } = rig({ userAgents: [olderChromeOnWindows, chromeOnWindows] });
    service.signedIn('u1', chromeOnWindows);
    await service.settled();
    expect(sent).toEqual([]);
  });

  it('counts a device the owner never used, even when no recent session is known', async () => {
    // Ana's only recent session is this one; she had others, longer ago.
    const { service, sent } = rig({ userAgents: [null], ever: 3 });
    service.signedIn('u2', null);
    await service.settled();
    expect(sent).toHaveLength(1);
    // An unknown stored language falls back to Spanish; an unreadable device is said so.
    expect(sent[0]?.subject).toBe('Nuevo inicio de sesión en tu cuenta de Tradebot');
    expect(sent[0]?.text).toContain('un dispositivo que no pudimos identificar');
  });

  it('says nothing for an account that never had another session (a seeded one)', async () => {
    const { service, sent, told } = rig({ userAgents: [safariOnIphone] });
    service.signedIn('u1', safariOnIphone);
    await service.settled();
    expect(sent).toEqual([]);
    expect(told).toEqual([]);
  });

  it('reports a mail that fails, without throwing at the sign-in', async () => {
    const { service, errors } = rig({
      failMail: true,
      userAgents: [chromeOnWindows, safariOnIphone],
    });
    expect(() => {
      service.signedIn('u1', safariOnIphone);
    }).not.toThrow();
    await service.settled();
    expect(errors).toHaveLength(1);
  });
});
