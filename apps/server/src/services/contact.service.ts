import {
  supportReplyWorkingHours,
  type ContactKind,
  type ContactResponse,
  type Language,
} from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { ContactMessagesStore } from '../repositories/contact-messages.repository';
import type { Mailer } from '../repositories/mail.repository';
import type { UserRow } from '../repositories/users.repository';
import { contactAcknowledgementMail, supportNotificationMail } from './support-mail-templates';
import { addWorkingHours, type WorkingCalendar } from './working-hours';

export interface SupportDesk {
  /** Where new messages are e-mailed (SUPPORT_EMAIL). */
  email: string;
  calendar: WorkingCalendar;
  /** The console's address of a message, for the support e-mail. */
  consoleUrl: (messageId: string) => string;
}

export interface ContactInput {
  kind: ContactKind;
  subject: string;
  message: string;
}

/**
 * spec §2 Contact: the message is stored with its due time (24 working hours, decision 056),
 * then e-mailed to support and acknowledged to the user. The e-mails go out after the answer:
 * once the message is stored it is in the console whatever the mail server does.
 */
export class ContactService {
  constructor(
    private readonly messages: ContactMessagesStore,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly desk: SupportDesk,
    private readonly onMailFailure: (error: unknown) => void,
  ) {}

  async send(
    user: UserRow,
    input: ContactInput,
    language: Language,
  ): Promise<ContactResponse['data']> {
    const now = this.clock.now();
    const dueAt = addWorkingHours(now, supportReplyWorkingHours, this.desk.calendar);
    const stored = await this.messages.create({
      userId: user.id,
      kind: input.kind,
      subject: input.subject,
      body: input.message,
      language,
      createdAt: now,
      updatedAt: now,
      dueAt,
    });
    const mail = {
      language,
      to: user.email,
      name: user.name,
      kind: input.kind,
      subject: input.subject,
      body: input.message,
      dueAt,
      replyWorkingHours: supportReplyWorkingHours,
      timeZone: this.desk.calendar.timeZone,
    };
    supportNotificationMail({
      ...mail,
      to: this.desk.email,
      name: `${user.name} ${user.lastName}`,
      userEmail: user.email,
      messageId: stored.id,
      consoleUrl: this.desk.consoleUrl(stored.id),
    })
      .then((notification) => this.mailer.send(notification))
      .catch(this.onMailFailure);
    contactAcknowledgementMail(mail)
      .then((acknowledgement) => this.mailer.send(acknowledgement))
      .catch(this.onMailFailure);
    return {
      id: stored.id,
      dueAt: dueAt.toISOString(),
      replyWorkingHours: supportReplyWorkingHours,
    };
  }
}
