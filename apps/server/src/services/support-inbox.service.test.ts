import { describe, expect, it, vi } from 'vitest';
import type { AdminAuditStore, AuditEntryInput } from '../repositories/admin-audit.repository';
import type { AdminRow } from '../repositories/admins.repository';
import type {
  ContactMessagesStore,
  MessageListing,
  ReplyRow,
} from '../repositories/contact-messages.repository';
import type { MailMessage } from '../repositories/mail.repository';
import type { Tx } from '../repositories/transaction';
import { SupportMessageNotFound } from './support-inbox.errors';
import { SupportInboxService } from './support-inbox.service';

// Decision 056 and 059: support answers from the console; each reply or status change is stored
// with its audit entry in one transaction, and the reply is mailed to the user in their language.
const now = new Date('2026-11-27T12:00:00.000Z');
const admin = { id: 'a1' } as AdminRow;

function message(overrides: Partial<MessageListing> = {}): MessageListing {
  return {
    id: 'm1',
    userId: 'u1',
    kind: 'customer_service',
    subject: 'Mi factura',
    body: 'No llegó la factura.',
    language: 'pt',
    status: 'open',
    createdAt: new Date('2026-11-26T12:00:00.000Z'),
    dueAt: new Date('2026-11-27T18:00:00.000Z'),
    answeredAt: null,
    user: { id: 'u1', email: 'ana@example.com', name: 'Ana', lastName: 'Paz' },
    replies: 0,
    ...overrides,
  } as MessageListing;
}

/** Plain stubs: one message, its thread, an audit log, a mailer, a marker transaction. */
function rig(stored: MessageListing | undefined, options: { failMail?: boolean } = {}) {
  const tx = { transaction: 'tx1' } as unknown as Tx;
  const writes: string[] = [];
  const audited: { entry: AuditEntryInput; tx: unknown }[] = [];
  const sent: MailMessage[] = [];
  const failures: unknown[] = [];
  const thread: ReplyRow[] = [];
  const messages = {
    find: (id: string) => Promise.resolve(id === stored?.id ? stored : undefined),
    thread: () => Promise.resolve(thread),
    addReply: (id: string, adminId: string, body: string, _now: Date, db?: Tx) => {
      expect(db).toBe(tx);
      writes.push(`reply ${id} ${adminId} ${body}`);
      thread.push({ id: 'r1', body, createdAt: now, admin: { id: adminId, name: 'Sol' } });
      return Promise.resolve({ id: 'r1' });
    },
    setStatus: (id: string, status: string, _now: Date, db?: Tx) => {
      expect(db).toBe(tx);
      writes.push(`status ${id} ${status}`);
      return Promise.resolve();
    },
  } as unknown as ContactMessagesStore;
  const audit: AdminAuditStore = {
    record: (entry, _at, db) => {
      audited.push({ entry, tx: db });
      return Promise.resolve();
    },
    page: () => Promise.resolve({ entries: [], total: 0 }),
  };
  const mailer = {
    send: (mail: MailMessage) => {
      if (options.failMail) return Promise.reject(new Error('smtp down'));
      sent.push(mail);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
  const service = new SupportInboxService(
    messages,
    audit,
    mailer,
    { now: () => now },
    (work) => work(tx),
    (error) => failures.push(error),
  );
  return { service, writes, audited, sent, failures, tx };
}

describe('SupportInboxService.reply', () => {
  it('stores the reply with its audit entry, answers the thread, and mails the user in their language', async () => {
    const { service, writes, audited, sent, tx } = rig(message());
    const detail = await service.reply(admin, 'm1', 'Ya la reenviamos.');
    expect(writes).toEqual(['reply m1 a1 Ya la reenviamos.']);
    expect(audited).toEqual([
      {
        entry: {
          adminId: 'a1',
          action: 'message.replied',
          targetType: 'contact_message',
          targetId: 'm1',
          before: { status: 'open', replies: 0 },
          after: { status: 'answered', replies: 1, replyId: 'r1' },
        },
        tx,
      },
    ]);
    expect(detail.thread.map((reply) => reply.body)).toEqual(['Ya la reenviamos.']);
    await vi.waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.to).toBe('ana@example.com');
    expect(sent[0]?.text).toContain('Ya la reenviamos.');
    expect(sent[0]?.text).toContain('No llegó la factura.');
  });

  it('still answers when the mail fails, and reports the failure', async () => {
    const { service, failures } = rig(message(), { failMail: true });
    await service.reply(admin, 'm1', 'Hola');
    await vi.waitFor(() => {
      expect(failures).toHaveLength(1);
    });
  });

  it('refuses an unknown message, writing and auditing nothing', async () => {
    const { service, writes, audited, sent } = rig(message());
    await expect(service.reply(admin, 'nope', 'Hola')).rejects.toBeInstanceOf(
      SupportMessageNotFound,
    );
    expect([writes, audited, sent]).toEqual([[], [], []]);
  });
});

describe('SupportInboxService.setStatus', () => {
  it('closes an open message with its audit entry; the same status again changes nothing', async () => {
    const open = rig(message());
    await open.service.setStatus(admin, 'm1', 'closed');
    expect(open.writes).toEqual(['status m1 closed']);
    expect(open.audited[0]?.entry).toMatchObject({
      action: 'message.status_changed',
      before: { status: 'open' },
      after: { status: 'closed' },
    });
    const closed = rig(message({ status: 'closed' }));
    await closed.service.setStatus(admin, 'm1', 'closed');
    expect([closed.writes, closed.audited]).toEqual([[], []]);
  });
});
