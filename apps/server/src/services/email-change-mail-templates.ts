import type { Language } from '@tradebot/contract';
import type { MailMessage } from '../repositories/mail.repository';
import { linkMail } from './registration-mail-templates';

interface EmailChangeCopy {
  greeting: (name: string) => string;
  confirmSubject: string;
  confirmIntro: (oldEmail: string) => string;
  confirmButton: string;
  confirmValidity: (hours: number) => string;
  confirmIgnore: string;
  takenSubject: string;
  takenIntro: string;
  takenIgnore: string;
  noticeSubject: string;
  noticeIntro: (newEmail: string, hours: number) => string;
  noticeNotYou: (days: number) => string;
  noticeButton: string;
  noticeAfter: string;
  signature: string;
}

const copy: Record<Language, EmailChangeCopy> = {
  es: {
    greeting: (name) => `Hola, ${name}:`,
    confirmSubject: 'Confirma tu nuevo correo de Tradebot',
    confirmIntro: (oldEmail) =>
      `Pediste que tu cuenta de Tradebot, hoy con el correo ${oldEmail}, use esta dirección. Confírmalo:`,
    confirmButton: 'Confirmar mi nuevo correo',
    confirmValidity: (hours) =>
      `El enlace vence en ${String(hours)} horas y sirve una sola vez. Hasta que lo abras, tu cuenta sigue con el correo de antes.`,
    confirmIgnore: 'Si no lo pediste, ignora este mensaje: nada cambia.',
    takenSubject: 'Alguien quiso usar tu correo en otra cuenta de Tradebot',
    takenIntro:
      'Alguien pidió que otra cuenta de Tradebot use esta dirección. Esta dirección ya tiene su propia cuenta, así que no cambió nada.',
    takenIgnore:
      'Si fuiste tú, inicia sesión con esta dirección en lugar de cambiar el correo de la otra cuenta. Si no, no hace falta que hagas nada.',
    noticeSubject: 'Pidieron cambiar el correo de tu cuenta de Tradebot',
    noticeIntro: (newEmail, hours) =>
      `Alguien con tu contraseña pidió que tu cuenta de Tradebot use el correo ${newEmail}. El cambio se hace solo si se abre, en ${String(hours)} horas, el enlace que enviamos a esa dirección.`,
    noticeNotYou: (days) =>
      `Si no fuiste tú, abre este enlace (sirve ${String(days)} días): cancela el cambio o vuelve a poner este correo en tu cuenta, y cierra todas las sesiones.`,
    noticeButton: 'No fui yo: proteger mi cuenta',
    noticeAfter:
      'Después, elige una contraseña nueva con "¿Olvidaste tu contraseña?": quien pidió el cambio la conoce.',
    signature: 'El equipo de Tradebot',
  },
  pt: {
    greeting: (name) => `Olá, ${name}:`,
    confirmSubject: 'Confirme seu novo e-mail da Tradebot',
    confirmIntro: (oldEmail) =>
      `Você pediu que sua conta da Tradebot, hoje com o e-mail ${oldEmail}, use este endereço. Confirme:`,
    confirmButton: 'Confirmar meu novo e-mail',
    confirmValidity: (hours) =>
      `O link expira em ${String(hours)} horas e só pode ser usado uma vez. Até você abri-lo, sua conta continua com o e-mail de antes.`,
    confirmIgnore: 'Se você não pediu, ignore esta mensagem: nada muda.',
    takenSubject: 'Alguém quis usar seu e-mail em outra conta da Tradebot',
    takenIntro:
      'Alguém pediu que outra conta da Tradebot use este endereço. Este endereço já tem sua própria conta, então nada mudou.',
    takenIgnore:
      'Se foi você, entre com este endereço em vez de alterar o e-mail da outra conta. Se não, você não precisa fazer nada.',
    noticeSubject: 'Pediram para alterar o e-mail da sua conta da Tradebot',
    noticeIntro: (newEmail, hours) =>
      `Alguém com a sua senha pediu que sua conta da Tradebot use o e-mail ${newEmail}. A alteração só acontece se o link que enviamos para esse endereço for aberto em ${String(hours)} horas.`,
    noticeNotYou: (days) =>
      `Se não foi você, abra este link (vale por ${String(days)} dias): ele cancela a alteração ou devolve este e-mail à sua conta, e encerra todas as sessões.`,
    noticeButton: 'Não fui eu: proteger minha conta',
    noticeAfter:
      'Depois, escolha uma nova senha em "Esqueceu sua senha?": quem pediu a alteração a conhece.',
    signature: 'Equipe Tradebot',
  },
};

/** To the new address: the link that makes it the account's (decision 089). */
export function confirmEmailChangeMail(
  language: Language,
  to: string,
  facts: { name: string; oldEmail: string; link: string; validHours: number },
): MailMessage {
  const text = copy[language];
  return linkMail(language, to, text.confirmSubject, [
    { text: text.greeting(facts.name) },
    { text: text.confirmIntro(facts.oldEmail) },
    { link: facts.link, label: text.confirmButton },
    { text: text.confirmValidity(facts.validHours) },
    { text: text.confirmIgnore },
    { text: text.signature },
  ]);
}

/**
 * To a new address that already has an account: nothing changed. The requester's answer is the
 * same as for a free address, so it does not tell who is a customer (decision 085's rule).
 */
export function emailTakenMail(language: Language, to: string): MailMessage {
  const text = copy[language];
  return linkMail(language, to, text.takenSubject, [
    { text: text.takenIntro },
    { text: text.takenIgnore },
    { text: text.signature },
  ]);
}

/** To the old address: a change was asked for, and the way back if it was not the owner. */
export function emailChangeNoticeMail(
  language: Language,
  to: string,
  facts: { name: string; newEmail: string; undoLink: string; validHours: number; undoDays: number },
): MailMessage {
  const text = copy[language];
  return linkMail(language, to, text.noticeSubject, [
    { text: text.greeting(facts.name) },
    { text: text.noticeIntro(facts.newEmail, facts.validHours) },
    { text: text.noticeNotYou(facts.undoDays) },
    { link: facts.undoLink, label: text.noticeButton },
    { text: text.noticeAfter },
    { text: text.signature },
  ]);
}
