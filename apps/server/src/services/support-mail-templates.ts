import { languageLocales, type ContactKind, type Language } from '@tradebot/contract';
import { translator } from '../i18n';
import { renderMail } from '../mail/layout';
import type { MailMessage } from '../repositories/mail.repository';

/**
 * "viernes, 20 de noviembre de 2026, 15:00 GMT-3", in the operator's time zone: on the 24-hour
 * clock, as es and pt readers write times (es-419 alone would say "12:00 a.m.": issue 39).
 */
export function formatDueTime(language: Language, dueAt: Date, timeZone: string): string {
  return new Intl.DateTimeFormat(languageLocales[language], {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(dueAt);
}

export interface ContactMailInput {
  language: Language;
  to: string;
  name: string;
  kind: ContactKind;
  subject: string;
  body: string;
  dueAt: Date;
  replyWorkingHours: number;
  timeZone: string;
}

/** The acknowledgement a user gets, in their language, with the promise and its due time. */
export function contactAcknowledgementMail(input: ContactMailInput): Promise<MailMessage> {
  const t = translator(input.language);
  const due = formatDueTime(input.language, input.dueAt, input.timeZone);
  return renderMail({
    language: input.language,
    to: input.to,
    subject: t('support.acknowledgementSubject', { subject: input.subject }),
    blocks: [
      { p: t('greeting', { name: input.name }) },
      { p: t('support.received', { kind: t(`support.kinds.${input.kind}`) }) },
      { p: t('support.promise', { hours: input.replyWorkingHours, due }), strong: true },
      { quote: input.body, heading: t('support.yourMessage') },
      { p: t('support.signature') },
    ],
  });
}

/** What the support address receives: who wrote, what, and by when it must be answered. */
export function supportNotificationMail(
  input: ContactMailInput & {
    to: string;
    userEmail: string;
    messageId: string;
    consoleUrl: string;
  },
): Promise<MailMessage> {
  const t = translator('es', 'operator');
  const lines = [
    t('contactFrom', { name: input.name, email: input.userEmail }),
    t('contactKind', { kind: translator('es')(`support.kinds.${input.kind}`) }),
    t('contactLanguage', { language: input.language }),
    t('contactDue', { due: formatDueTime('es', input.dueAt, input.timeZone) }),
    t('contactConsole', { url: input.consoleUrl }),
  ];
  return renderMail({
    language: 'es',
    to: input.to,
    subject: t('contactSubject', { subject: input.subject }),
    blocks: [{ p: lines.join('\n') }, { p: input.body }],
  });
}

/** Support's reply to a user, in the language they wrote in, quoting their message. */
export function supportReplyMail(input: {
  language: Language;
  to: string;
  name: string;
  subject: string;
  reply: string;
  original: string;
}): Promise<MailMessage> {
  const t = translator(input.language);
  return renderMail({
    language: input.language,
    to: input.to,
    subject: t('support.replySubject', { subject: input.subject }),
    blocks: [
      { p: t('greeting', { name: input.name }) },
      { p: t('support.replyIntro') },
      { p: input.reply },
      { p: t('support.replyMore') },
      { p: t('support.signature') },
      { quote: input.original, heading: t('support.yourMessage'), earlier: true },
    ],
  });
}
