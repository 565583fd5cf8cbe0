import type { Language } from '@tradebot/contract';
import type { MailMessage } from '../repositories/mail.repository';
import { escapeHtml } from './mail-templates';

interface RegistrationCopy {
  greeting: (name: string) => string;
  confirmSubject: string;
  confirmIntro: string;
  confirmButton: string;
  confirmValidity: (hours: number) => string;
  confirmOtherDevice: string;
  confirmIgnore: string;
  existingSubject: string;
  existingIntro: string;
  existingLogin: string;
  existingRecover: string;
  existingIgnore: string;
  welcomeSubject: string;
  welcomeIntro: string;
  welcomeNext: string;
  welcomePlan: string;
  welcomePlanButton: string;
  welcomeLink: string;
  welcomeLinkButton: string;
  welcomeRobot: string;
  welcomeRobotButton: string;
  welcomeRisk: string;
  welcomeSupport: (address: string) => string;
  signature: string;
}

const copy: Record<Language, RegistrationCopy> = {
  es: {
    greeting: (name) => `Hola, ${name}:`,
    confirmSubject: 'Confirma tu correo para crear tu cuenta de Tradebot',
    confirmIntro: 'Para terminar de crear tu cuenta, confirma que este correo es tuyo:',
    confirmButton: 'Confirmar mi correo',
    confirmValidity: (hours) =>
      `El enlace vence en ${hours} horas y sirve una sola vez. Si vence, vuelve a crear tu cuenta.`,
    confirmOtherDevice:
      'Si lo abres en otro dispositivo o navegador, te pediremos la contraseña que elegiste.',
    confirmIgnore:
      'Si no creaste una cuenta en Tradebot, ignora este mensaje: no se creará ninguna.',
    existingSubject: 'Ya tienes una cuenta de Tradebot',
    existingIntro:
      'Alguien (probablemente tú) intentó crear una cuenta nueva con este correo, pero ya tienes una. No creamos otra.',
    existingLogin: 'Inicia sesión',
    existingRecover: '¿Olvidaste tu contraseña? Recupérala',
    existingIgnore: 'Si no fuiste tú, ignora este mensaje: tu cuenta y tu contraseña no cambiaron.',
    welcomeSubject: 'Bienvenido a Tradebot: tus próximos pasos',
    welcomeIntro: 'Tu cuenta de Tradebot está creada. Te damos la bienvenida.',
    welcomeNext: 'Para que el robot opere por ti faltan tres pasos:',
    welcomePlan:
      '1. Elige un plan (mensual o anual). Si tu código promocional te dio el mes gratis, este paso ya está hecho.',
    welcomePlanButton: 'Elegir un plan',
    welcomeLink:
      '2. Vincula tu cuenta de la plataforma de trading: es donde el robot abrirá las operaciones. Verás si el dinero es real o simulado antes de vincularla.',
    welcomeLinkButton: 'Vincular la plataforma',
    welcomeRobot:
      '3. Enciende el robot y elige tu nivel de riesgo. Puedes apagarlo cuando quieras.',
    welcomeRobotButton: 'Encender el robot',
    welcomeRisk:
      'Invertir implica riesgos: puedes perder parte o todo el dinero que inviertes. El robot no garantiza ganancias, y los resultados pasados no aseguran resultados futuros. Invierte solo lo que puedas permitirte perder.',
    welcomeSupport: (address) =>
      `¿Dudas? Escríbenos a ${address}: respondemos dentro de las 24 horas hábiles.`,
    signature: 'El equipo de Tradebot',
  },
  pt: {
    greeting: (name) => `Olá, ${name}:`,
    confirmSubject: 'Confirme seu e-mail para criar sua conta no Tradebot',
    confirmIntro: 'Para terminar de criar sua conta, confirme que este e-mail é seu:',
    confirmButton: 'Confirmar meu e-mail',
    confirmValidity: (hours) =>
      `O link expira em ${hours} horas e só pode ser usado uma vez. Se expirar, crie sua conta de novo.`,
    confirmOtherDevice:
      'Se você abri-lo em outro dispositivo ou navegador, pediremos a senha que você escolheu.',
    confirmIgnore:
      'Se você não criou uma conta no Tradebot, ignore esta mensagem: nenhuma conta será criada.',
    existingSubject: 'Você já tem uma conta no Tradebot',
    existingIntro:
      'Alguém (provavelmente você) tentou criar uma conta nova com este e-mail, mas você já tem uma. Não criamos outra.',
    existingLogin: 'Entre na sua conta',
    existingRecover: 'Esqueceu a senha? Recupere-a',
    existingIgnore: 'Se não foi você, ignore esta mensagem: sua conta e sua senha não mudaram.',
    welcomeSubject: 'Boas-vindas ao Tradebot: seus próximos passos',
    welcomeIntro: 'Sua conta no Tradebot foi criada. Boas-vindas!',
    welcomeNext: 'Faltam três passos para o robô operar por você:',
    welcomePlan:
      '1. Escolha um plano (mensal ou anual). Se o seu código promocional deu o mês grátis, este passo já está feito.',
    welcomePlanButton: 'Escolher um plano',
    welcomeLink:
      '2. Vincule sua conta da plataforma de trading: é nela que o robô abrirá as operações. Você verá se o dinheiro é real ou simulado antes de vinculá-la.',
    welcomeLinkButton: 'Vincular a plataforma',
    welcomeRobot:
      '3. Ligue o robô e escolha seu nível de risco. Você pode desligá-lo quando quiser.',
    welcomeRobotButton: 'Ligar o robô',
    welcomeRisk:
      'Investir envolve riscos: você pode perder parte ou todo o dinheiro investido. O robô não garante lucro, e resultados passados não asseguram resultados futuros. Invista apenas o que você pode perder.',
    welcomeSupport: (address) =>
      `Dúvidas? Escreva para ${address}: respondemos em até 24 horas úteis.`,
    signature: 'Equipe Tradebot',
  },
};

export type Part = { text: string } | { link: string; label: string };

/** Paragraphs and links, as text (each link on a line of its own) and HTML. */
export function linkMail(
  language: Language,
  to: string,
  subject: string,
  parts: Part[],
): MailMessage {
  const text = parts
    .map((part) => ('link' in part ? `${part.label}:\n${part.link}` : part.text))
    .join('\n\n');
  const html = `<!doctype html>
<html lang="${language}">
  <body style="font-family: system-ui, sans-serif; color: #15202b; line-height: 1.5">
${parts
  .map((part) =>
    'link' in part
      ? `    <p><a href="${escapeHtml(part.link)}" style="display: inline-block; padding: 10px 18px; background: #0b6e4f; color: #ffffff; border-radius: 6px; text-decoration: none; font-weight: 600">${escapeHtml(part.label)}</a></p>`
      : `    <p>${escapeHtml(part.text)}</p>`,
  )
  .join('\n')}
  </body>
</html>`;
  return { to, subject, text, html };
}

/** The link that creates the account (decision 085). */
export function confirmRegistrationMail(
  language: Language,
  to: string,
  name: string,
  link: string,
  validHours: number,
): MailMessage {
  const text = copy[language];
  return linkMail(language, to, text.confirmSubject, [
    { text: text.greeting(name) },
    { text: text.confirmIntro },
    { link, label: text.confirmButton },
    { text: text.confirmValidity(validHours) },
    { text: text.confirmOtherDevice },
    { text: text.confirmIgnore },
    { text: text.signature },
  ]);
}

/** A registration for an address that already has an account: what to do instead. */
export function alreadyRegisteredMail(
  language: Language,
  to: string,
  name: string,
  links: { login: string; recover: string },
): MailMessage {
  const text = copy[language];
  return linkMail(language, to, text.existingSubject, [
    { text: text.greeting(name) },
    { text: text.existingIntro },
    { link: links.login, label: text.existingLogin },
    { link: links.recover, label: text.existingRecover },
    { text: text.existingIgnore },
    { text: text.signature },
  ]);
}

/**
 * Sent once the account exists (issue 23): what happens next, the risk said plainly, and
 * where to ask. Links come from the configured origin only.
 */
export function welcomeMail(
  language: Language,
  to: string,
  name: string,
  links: { plan: string; linkPlatform: string; robot: string; supportEmail: string },
): MailMessage {
  const text = copy[language];
  return linkMail(language, to, text.welcomeSubject, [
    { text: text.greeting(name) },
    { text: text.welcomeIntro },
    { text: text.welcomeNext },
    { text: text.welcomePlan },
    { link: links.plan, label: text.welcomePlanButton },
    { text: text.welcomeLink },
    { link: links.linkPlatform, label: text.welcomeLinkButton },
    { text: text.welcomeRobot },
    { link: links.robot, label: text.welcomeRobotButton },
    { text: text.welcomeRisk },
    { text: text.welcomeSupport(links.supportEmail) },
    { text: text.signature },
  ]);
}
