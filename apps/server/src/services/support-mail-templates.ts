import { escape as escapeHtml } from 'html-escaper';
import { languageLocales, type ContactKind, type Language } from '@tradebot/contract';
import type { MailMessage } from '../repositories/mail.repository';

/** Paragraphs of plain text as HTML, every character escaped. */
const paragraphs = (text: string) =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((block) => `<p>${escapeHtml(block).replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n    ');

const htmlPage = (language: Language, body: string) => `<!doctype html>
<html lang="${language}">
  <body style="font-family: system-ui, sans-serif; color: #15202b; line-height: 1.5">
    ${body}
  </body>
</html>`;

/** "viernes, 20 de noviembre de 2026, 15:00 GMT-3", in the operator's time zone. */
export function formatDueTime(language: Language, dueAt: Date, timeZone: string): string {
  return new Intl.DateTimeFormat(languageLocales[language], {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(dueAt);
}

interface SupportCopy {
  kinds: Record<ContactKind, string>;
  greeting: (name: string) => string;
  signature: string;
  acknowledgement: {
    subject: (subject: string) => string;
    received: (kind: string) => string;
    promise: (hours: number, due: string) => string;
    yourMessage: string;
  };
  reply: {
    subject: (subject: string) => string;
    intro: string;
    original: string;
    more: string;
  };
}

const copy: Record<Language, SupportCopy> = {
  es: {
    kinds: {
      customer_service: 'atención al cliente',
      suggestion: 'comentarios y sugerencias',
    },
    greeting: (name) => `Hola, ${name}:`,
    signature: 'El equipo de soporte de Tradebot',
    acknowledgement: {
      subject: (subject) => `Recibimos tu mensaje: ${subject}`,
      received: (kind) => `Recibimos tu mensaje de ${kind}.`,
      promise: (hours, due) =>
        `Respondemos dentro de ${String(hours)} horas hábiles (de lunes a viernes, sin contar feriados): a más tardar el ${due}.`,
      yourMessage: 'Tu mensaje:',
    },
    reply: {
      subject: (subject) => `Re: ${subject}`,
      intro: 'Esta es la respuesta del equipo de soporte a tu mensaje:',
      original: 'Tu mensaje:',
      more: 'Si necesitas algo más, escríbenos de nuevo desde la página de contacto.',
    },
  },
  pt: {
    kinds: {
      customer_service: 'atendimento ao cliente',
      suggestion: 'comentários e sugestões',
    },
    greeting: (name) => `Olá, ${name}:`,
    signature: 'Equipe de suporte Tradebot',
    acknowledgement: {
      subject: (subject) => `Recebemos sua mensagem: ${subject}`,
      received: (kind) => `Recebemos sua mensagem de ${kind}.`,
      promise: (hours, due) =>
        `Respondemos em até ${String(hours)} horas úteis (de segunda a sexta, sem contar feriados): no máximo até ${due}.`,
      yourMessage: 'Sua mensagem:',
    },
    reply: {
      subject: (subject) => `Re: ${subject}`,
      intro: 'Esta é a resposta da equipe de suporte à sua mensagem:',
      original: 'Sua mensagem:',
      more: 'Se precisar de mais alguma coisa, escreva de novo pela página de contato.',
    },
  },
};

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
export function contactAcknowledgementMail(input: ContactMailInput): MailMessage {
  const text = copy[input.language];
  const due = formatDueTime(input.language, input.dueAt, input.timeZone);
  const received = text.acknowledgement.received(text.kinds[input.kind]);
  const promise = text.acknowledgement.promise(input.replyWorkingHours, due);
  return {
    to: input.to,
    subject: text.acknowledgement.subject(input.subject),
    text: [
      text.greeting(input.name),
      '',
      received,
      promise,
      '',
      text.acknowledgement.yourMessage,
      '',
      input.body,
      '',
      text.signature,
    ].join('\n'),
    html: htmlPage(
      input.language,
      `<p>${escapeHtml(text.greeting(input.name))}</p>
    <p>${escapeHtml(received)}</p>
    <p><strong>${escapeHtml(promise)}</strong></p>
    <p>${escapeHtml(text.acknowledgement.yourMessage)}</p>
    <blockquote style="border-left: 3px solid #c8d1da; margin: 0; padding-left: 12px">
    ${paragraphs(input.body)}
    </blockquote>
    <p>${escapeHtml(text.signature)}</p>`,
    ),
  };
}

/** What the support address receives: who wrote, what, and by when it must be answered. */
export function supportNotificationMail(
  input: ContactMailInput & {
    to: string;
    userEmail: string;
    messageId: string;
    consoleUrl: string;
  },
): MailMessage {
  const kind = copy.es.kinds[input.kind];
  const due = formatDueTime('es', input.dueAt, input.timeZone);
  const lines = [
    `De: ${input.name} <${input.userEmail}>`,
    `Tipo: ${kind}`,
    `Idioma: ${input.language}`,
    `Responder antes de: ${due}`,
    `Consola: ${input.consoleUrl}`,
  ];
  return {
    to: input.to,
    subject: `[Contacto] ${input.subject}`,
    text: [...lines, '', input.body].join('\n'),
    html: htmlPage(
      'es',
      `<p>${lines.map(escapeHtml).join('<br>')}</p>
    ${paragraphs(input.body)}`,
    ),
  };
}

/** Support's reply to a user, in the language they wrote in, quoting their message. */
export function supportReplyMail(input: {
  language: Language;
  to: string;
  name: string;
  subject: string;
  reply: string;
  original: string;
}): MailMessage {
  const text = copy[input.language];
  return {
    to: input.to,
    subject: text.reply.subject(input.subject),
    text: [
      text.greeting(input.name),
      '',
      text.reply.intro,
      '',
      input.reply,
      '',
      text.reply.more,
      '',
      text.signature,
      '',
      `> ${text.reply.original}`,
      ...input.original.split(/\r?\n/).map((line) => `> ${line}`),
    ].join('\n'),
    html: htmlPage(
      input.language,
      `<p>${escapeHtml(text.greeting(input.name))}</p>
    <p>${escapeHtml(text.reply.intro)}</p>
    ${paragraphs(input.reply)}
    <p>${escapeHtml(text.reply.more)}</p>
    <p>${escapeHtml(text.signature)}</p>
    <p style="color: #5b6b7b">${escapeHtml(text.reply.original)}</p>
    <blockquote style="border-left: 3px solid #c8d1da; margin: 0; padding-left: 12px; color: #5b6b7b">
    ${paragraphs(input.original)}
    </blockquote>`,
    ),
  };
}
