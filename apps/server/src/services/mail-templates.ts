import type { Language } from '@tradebot/contract';
import type { MailMessage } from '../repositories/mail.repository';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

interface RecoveryCopy {
  subject: string;
  greeting: (name: string) => string;
  intro: string;
  validity: (minutes: number) => string;
  ignore: string;
  signature: string;
}

const recoveryCopy: Record<Language, RecoveryCopy> = {
  es: {
    subject: 'Tu código para recuperar la contraseña',
    greeting: (name) => `Hola, ${name}:`,
    intro: 'Usa este código para elegir una nueva contraseña:',
    validity: (minutes) =>
      `El código vence en ${minutes} minutos y sirve una sola vez. Si lo ingresas mal 5 veces, pide uno nuevo.`,
    ignore: 'Si no pediste este cambio, ignora este mensaje: tu contraseña sigue siendo la misma.',
    signature: 'El equipo de Tradebot',
  },
  pt: {
    subject: 'Seu código para recuperar a senha',
    greeting: (name) => `Olá, ${name}:`,
    intro: 'Use este código para escolher uma nova senha:',
    validity: (minutes) =>
      `O código expira em ${minutes} minutos e só pode ser usado uma vez. Se você errar 5 vezes, peça um novo.`,
    ignore: 'Se você não pediu esta alteração, ignore esta mensagem: sua senha continua a mesma.',
    signature: 'Equipe Tradebot',
  },
};

/**
 * An e-mail whose point is one code: paragraphs before it, the code set large, paragraphs after
 * it, as text and HTML.
 */
function codeMail(
  language: Language,
  message: { to: string; subject: string; before: string[]; code: string; after: string[] },
): MailMessage {
  const text = [...message.before.flatMap((line) => [line, '']), `    ${message.code}`, '']
    .concat(message.after)
    .join('\n');
  const paragraphs = (lines: string[]) =>
    lines
      .filter(Boolean)
      .map((line) => `    <p>${escapeHtml(line)}</p>`)
      .join('\n');
  const html = `<!doctype html>
<html lang="${language}">
  <body style="font-family: system-ui, sans-serif; color: #15202b; line-height: 1.5">
${paragraphs(message.before)}
    <p style="font-size: 28px; font-weight: 700; letter-spacing: 6px">${escapeHtml(message.code)}</p>
${paragraphs(message.after)}
  </body>
</html>`;
  return { to: message.to, subject: message.subject, text, html };
}

/** The recovery-code e-mail, as text and HTML, in the user's language. */
export function recoveryCodeMail(
  language: Language,
  to: string,
  name: string,
  code: string,
  validMinutes: number,
): MailMessage {
  const copy = recoveryCopy[language];
  return codeMail(language, {
    to,
    subject: copy.subject,
    before: [copy.greeting(name), copy.intro],
    code,
    after: [copy.validity(validMinutes), copy.ignore, '', copy.signature],
  });
}

interface FreeMonthCopy {
  subject: string;
  greeting: string;
  intro: string;
  howTo: string;
  risk: string;
  signature: string;
}

const freeMonthCopy: Record<Language, FreeMonthCopy> = {
  es: {
    subject: 'Tu código para un mes gratis de Tradebot',
    greeting: 'Hola:',
    intro: 'Gracias por tu interés en Tradebot. Este es tu código para un mes gratis:',
    howTo:
      'Ingrésalo en el campo «Código promocional» al crear tu cuenta (o en el pago, si ya la tienes). El mes gratis cubre la suscripción.',
    risk: 'Operar con productos apalancados implica un alto riesgo de pérdida: el mes gratis no cubre las pérdidas que puedan producirse en tu cuenta del bróker.',
    signature: 'El equipo de Tradebot',
  },
  pt: {
    subject: 'Seu código para um mês grátis de Tradebot',
    greeting: 'Olá:',
    intro: 'Obrigado pelo seu interesse no Tradebot. Este é o seu código para um mês grátis:',
    howTo:
      'Digite-o no campo «Código promocional» ao criar sua conta (ou no pagamento, se você já tiver uma). O mês grátis cobre a assinatura.',
    risk: 'Operar com produtos alavancados envolve um alto risco de perda: o mês grátis não cobre as perdas que possam ocorrer na sua conta da corretora.',
    signature: 'Equipe Tradebot',
  },
};

/** The free-month landing's e-mail: the promotion's code, as text and HTML. */
export function freeMonthCodeMail(language: Language, to: string, code: string): MailMessage {
  const copy = freeMonthCopy[language];
  return codeMail(language, {
    to,
    subject: copy.subject,
    before: [copy.greeting, copy.intro],
    code,
    after: [copy.howTo, copy.risk, '', copy.signature],
  });
}
