import { describe, expect, it, vi } from 'vitest';
import type {
  ContactMessageRow,
  ContactMessagesStore,
  NewContactMessage,
} from '../repositories/contact-messages.repository';
import type { MailMessage, Mailer } from '../repositories/mail.repository';
import type { UserRow } from '../repositories/users.repository';
import { ContactService } from './contact.service';

// Friday 15:00 in Buenos Aires: 24 working hours later is Monday 15:00 (decision 056).
const friday = new Date('2026-11-20T18:00:00.000Z');
const monday = new Date('2026-11-23T18:00:00.000Z');
const user = { id: 'u1', email: 'ana@example.com', name: 'Ana', lastName: 'Paz' } as UserRow;
const input = {
  kind: 'customer_service',
  subject: 'Mi factura',
  message: 'No llegó la factura.',
} as const;

/** Plain stubs: a message store that numbers what it stores, a mailer that keeps what it sends. */
function rig(options: { failCreate?: boolean; failMail?: boolean } = {}) {
  const stored: NewContactMessage[] = [];
  const sent: MailMessage[] = [];
  const failures: unknown[] = [];
  const messages = {
    create: (message: NewContactMessage) => {
      if (options.failCreate) return Promise.reject(new Error('database down'));
      stored.push(message);
      return Promise.resolve({ ...message, id: `m${stored.length}` } as ContactMessageRow);
    },
  } as unknown as ContactMessagesStore;
  const mailer: Mailer = {
    send: (message) => {
      if (options.failMail) return Promise.reject(new Error('smtp down'));
      sent.push(message);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
  const desk = {
    email: 'support@tradebot.test',
    calendar: { timeZone: 'America/Argentina/Buenos_Aires', holidays: new Set<string>() },
    consoleUrl: (id: string) => `https://console.test/messages/${id}`,
  };
  const service = new ContactService(messages, mailer, { now: () => friday }, desk, (error) =>
    failures.push(error),
  );
  return { service, stored, sent, failures };
}

describe('ContactService.send (spec §2 Contact)', () => {
  it('stores the message due 24 working hours later, skipping the weekend, and answers with it', async () => {
    const { service, stored } = rig();
    const answer = await service.send(user, input, 'pt');
    expect(stored).toEqual([
      {
        userId: 'u1',
        kind: 'customer_service',
        subject: 'Mi factura',
        body: 'No llegó la factura.',
        language: 'pt',
        createdAt: friday,
        updatedAt: friday,
        dueAt: monday,
      },
    ]);
    expect(answer).toEqual({ id: 'm1', dueAt: monday.toISOString(), replyWorkingHours: 24 });
  });

  it('mails support (in Spanish, with the console link of the stored message) and acknowledges the user', async () => {
    const { service, sent } = rig();
    await service.send(user, input, 'pt');
    await vi.waitFor(() => {
      expect(sent).toHaveLength(2);
    });
    const support = sent.find((mail) => mail.to === 'support@tradebot.test');
    const acknowledgement = sent.find((mail) => mail.to === 'ana@example.com');
    expect(support?.text).toContain('https://console.test/messages/m1');
    expect(support?.text).toContain('Ana Paz');
    expect(support?.subject).toContain('Mi factura');
    // The user's copy is in the language they wrote in, not in the operator's Spanish.
    expect(acknowledgement?.subject).toContain('Mi factura');
    expect(acknowledgement?.subject).not.toBe(support?.subject);
    expect(acknowledgement?.text).toContain('No llegó la factura.');
  });

  it('answers even when the mail server fails, and reports each failed mail', async () => {
    const { service, stored, failures } = rig({ failMail: true });
    const answer = await service.send(user, input, 'es');
    expect(answer.id).toBe('m1');
    expect(stored).toHaveLength(1);
    await vi.waitFor(() => {
      expect(failures).toHaveLength(2);
    });
  });

  it('mails nothing when the message could not be stored', async () => {
    const { service, sent } = rig({ failCreate: true });
    await expect(service.send(user, input, 'es')).rejects.toThrow('database down');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toEqual([]);
  });
});
