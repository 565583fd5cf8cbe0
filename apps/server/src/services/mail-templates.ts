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

/** The recovery-code e-mail, as text and HTML, in the user's language. */
export function recoveryCodeMail(
  language: Language,
  to: string,
  name: string,
  code: string,
  validMinutes: number,
): MailMessage {
  const copy = recoveryCopy[language];
  const text = [
    copy.greeting(name),
    '',
    copy.intro,
    '',
    `    ${code}`,
    '',
    copy.validity(validMinutes),
    copy.ignore,
    '',
    copy.signature,
  ].join('\n');
  const html = `<!doctype html>
<html lang="${language}">
  <body style="font-family: system-ui, sans-serif; color: #15202b; line-height: 1.5">
    <p>${escapeHtml(copy.greeting(name))}</p>
    <p>${escapeHtml(copy.intro)}</p>
    <p style="font-size: 28px; font-weight: 700; letter-spacing: 6px">${code}</p>
    <p>${escapeHtml(copy.validity(validMinutes))}</p>
    <p>${escapeHtml(copy.ignore)}</p>
    <p>${escapeHtml(copy.signature)}</p>
  </body>
</html>`;
  return { to, subject: copy.subject, text, html };
}
