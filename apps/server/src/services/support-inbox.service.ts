import {
  adminPageSize,
  isLanguage,
  type AdminMessageDetail,
  type AdminMessageFilter,
  type AdminMessages,
  type AdminMessageSummary,
  type ContactStatus,
} from '@tradebot/contract';
import type { Transact } from '../repositories/transaction';
import type { AdminAuditStore } from '../repositories/admin-audit.repository';
import type { AdminRow } from '../repositories/admins.repository';
import type { Clock } from '../repositories/clock';
import type {
  ContactMessagesStore,
  MessageListing,
} from '../repositories/contact-messages.repository';
import type { Mailer } from '../repositories/mail.repository';
import { supportReplyMail } from './support-mail-templates';
import { SupportMessageNotFound } from './support-inbox.errors';

/** Runs work in one database transaction (the database's, or a stub's in unit tests). */

export function messageSummaryOf(message: MessageListing, now: Date): AdminMessageSummary {
  return {
    id: message.id,
    kind: message.kind,
    subject: message.subject,
    status: message.status,
    createdAt: message.createdAt.toISOString(),
    dueAt: message.dueAt.toISOString(),
    answeredAt: message.answeredAt?.toISOString() ?? null,
    overdue: message.status === 'open' && message.dueAt.getTime() < now.getTime(),
    replies: message.replies,
    user: {
      id: message.user.id,
      email: message.user.email,
      name: message.user.name,
      last_name: message.user.lastName,
    },
  };
}

/** The console's inbox: messages by urgency, each with its thread; replies go out by e-mail. */
export class SupportInboxService {
  constructor(
    private readonly messages: ContactMessagesStore,
    private readonly audit: AdminAuditStore,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly transact: Transact,
    private readonly onMailFailure: (error: unknown) => void,
  ) {}

  async page(filter: AdminMessageFilter, offset: number): Promise<AdminMessages> {
    const now = this.clock.now();
    const page = await this.messages.page(filter, offset, adminPageSize, now);
    return {
      messages: page.messages.map((message) => messageSummaryOf(message, now)),
      total: page.total,
      overdue: page.overdue,
    };
  }

  /**
   * A message and its thread, as `admin` opens it: the read is audited (`message.viewed`, naming
   * the user who wrote it; decision 117) before anything is shown.
   */
  async detail(admin: AdminRow, id: string): Promise<AdminMessageDetail> {
    const message = await this.messages.find(id);
    if (!message) throw new SupportMessageNotFound();
    await this.audit.record(
      {
        adminId: admin.id,
        action: 'message.viewed',
        targetType: 'user',
        targetId: message.user.id,
        before: null,
        after: { messageId: id },
      },
      this.clock.now(),
    );
    return this.withThread(message);
  }

  /** The message as the console shows it after an action on it (the action is audited). */
  private async current(id: string): Promise<AdminMessageDetail> {
    const message = await this.messages.find(id);
    if (!message) throw new SupportMessageNotFound();
    return this.withThread(message);
  }

  private async withThread(message: MessageListing): Promise<AdminMessageDetail> {
    const thread = await this.messages.thread(message.id);
    return {
      ...messageSummaryOf(message, this.clock.now()),
      body: message.body,
      language: message.language,
      thread: thread.map((reply) => ({
        id: reply.id,
        body: reply.body,
        createdAt: reply.createdAt.toISOString(),
        admin: reply.admin,
      })),
    };
  }

  /** Stores the reply and its audit entry together, then e-mails it to the user. */
  async reply(admin: AdminRow, id: string, body: string): Promise<AdminMessageDetail> {
    const message = await this.messages.find(id);
    if (!message) throw new SupportMessageNotFound();
    const now = this.clock.now();
    await this.transact(async (tx) => {
      const added = await this.messages.addReply(id, admin.id, body, now, tx);
      await this.audit.record(
        {
          adminId: admin.id,
          action: 'message.replied',
          targetType: 'contact_message',
          targetId: id,
          before: { status: message.status, replies: message.replies },
          after: { status: 'answered', replies: message.replies + 1, replyId: added.id },
        },
        now,
        tx,
      );
    });
    supportReplyMail({
      language: isLanguage(message.language) ? message.language : 'es',
      to: message.user.email,
      name: message.user.name,
      subject: message.subject,
      reply: body,
      original: message.body,
    })
      .then((reply) => this.mailer.send(reply))
      .catch(this.onMailFailure);
    return this.current(id);
  }

  async setStatus(
    admin: AdminRow,
    id: string,
    status: Extract<ContactStatus, 'open' | 'closed'>,
  ): Promise<AdminMessageDetail> {
    const message = await this.messages.find(id);
    if (!message) throw new SupportMessageNotFound();
    if (message.status !== status) {
      const now = this.clock.now();
      await this.transact(async (tx) => {
        await this.messages.setStatus(id, status, now, tx);
        await this.audit.record(
          {
            adminId: admin.id,
            action: 'message.status_changed',
            targetType: 'contact_message',
            targetId: id,
            before: { status: message.status },
            after: { status },
          },
          now,
          tx,
        );
      });
    }
    return this.current(id);
  }
}
