import { escape as escapeHtml } from 'html-escaper';
import type { Language, PlanId } from '@tradebot/contract';
import type { MailMessage } from '../repositories/mail.repository';

// Text into HTML: html-escaper, one escaper for every page and mail we write.
export { escapeHtml };

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

export interface ReceiptFacts {
  plan: PlanId;
  amount: string;
  paidAt: string;
  periodEnd: string;
  card: string | null;
  /** The last day of the 7-day refund, for the first payment only. */
  refundUntil: string | null;
  giftAmount: string | null;
}

interface BillingCopy {
  receiptSubject: string;
  refundSubject: string;
  greeting: (name: string) => string;
  receiptIntro: string;
  plan: Record<PlanId, string>;
  amount: string;
  paidAt: string;
  periodEnd: string;
  card: string;
  refund: (day: string) => string;
  gift: (amount: string) => string;
  refundIntro: (amount: string) => string;
  refundAccess: string;
  honesty: string;
  signature: string;
  duplicateSubject: string;
  duplicateIntro: (amount: string) => string;
  duplicateKept: string;
}

const billingCopy: Record<Language, BillingCopy> = {
  es: {
    receiptSubject: 'Recibo de tu suscripción a Tradebot',
    refundSubject: 'Te devolvimos el pago de tu suscripción',
    greeting: (name) => `Hola, ${name}:`,
    receiptIntro: 'Recibimos tu pago. Este es tu recibo:',
    plan: { monthly: 'Plan mensual', yearly: 'Plan anual' },
    amount: 'Importe',
    paidAt: 'Fecha',
    periodEnd: 'Cubre hasta',
    card: 'Tarjeta',
    refund: (day) =>
      `Si cambias de opinión, puedes pedir el reembolso desde tu perfil hasta el ${day}.`,
    gift: (amount) =>
      `Tu plan anual incluye un regalo de ${amount} en tu cuenta de la plataforma de trading: lo depositamos cuando vinculas tu cuenta.`,
    refundIntro: (amount) =>
      `Te devolvimos ${amount}. El reembolso puede tardar unos días en verse en tu tarjeta.`,
    refundAccess: 'Tu suscripción terminó y el robot ya no abre operaciones nuevas.',
    honesty: 'Invertir implica riesgos: el robot no garantiza ganancias.',
    signature: 'El equipo de Tradebot',
    duplicateSubject: 'Te devolvimos un pago repetido',
    duplicateIntro: (amount) =>
      `Pagaste una segunda suscripción cuando ya tenías una. Cada cuenta tiene una sola suscripción, así que te devolvimos ${amount} en cuanto llegó el pago y cancelamos esa segunda suscripción. El reembolso puede tardar unos días en verse en tu tarjeta.`,
    duplicateKept: 'Tu primera suscripción sigue igual: no cambia nada en tu acceso.',
  },
  pt: {
    receiptSubject: 'Recibo da sua assinatura da Tradebot',
    refundSubject: 'Devolvemos o pagamento da sua assinatura',
    greeting: (name) => `Olá, ${name}:`,
    receiptIntro: 'Recebemos seu pagamento. Este é o seu recibo:',
    plan: { monthly: 'Plano mensal', yearly: 'Plano anual' },
    amount: 'Valor',
    paidAt: 'Data',
    periodEnd: 'Cobre até',
    card: 'Cartão',
    refund: (day) => `Se mudar de ideia, você pode pedir o reembolso no seu perfil até ${day}.`,
    gift: (amount) =>
      `Seu plano anual inclui um presente de ${amount} na sua conta da plataforma de trading: depositamos quando você vincula sua conta.`,
    refundIntro: (amount) =>
      `Devolvemos ${amount}. O reembolso pode levar alguns dias para aparecer no seu cartão.`,
    refundAccess: 'Sua assinatura terminou e o robô não abre mais operações novas.',
    honesty: 'Investir envolve riscos: o robô não garante lucros.',
    signature: 'Equipe Tradebot',
    duplicateSubject: 'Devolvemos um pagamento repetido',
    duplicateIntro: (amount) =>
      `Você pagou uma segunda assinatura quando já tinha uma. Cada conta tem uma só assinatura, então devolvemos ${amount} assim que o pagamento chegou e cancelamos essa segunda assinatura. O reembolso pode levar alguns dias para aparecer no seu cartão.`,
    duplicateKept: 'Sua primeira assinatura continua igual: nada muda no seu acesso.',
  },
};

function htmlMail(
  language: Language,
  before: string[],
  table: [string, string][] = [],
  after: string[] = [],
) {
  const paragraphs = (texts: string[]) =>
    texts.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n    ');
  const rows = table
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding: 4px 12px 4px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="${language}">
  <body style="font-family: system-ui, sans-serif; color: #15202b; line-height: 1.5">
    ${paragraphs(before)}
    ${rows ? `<table>${rows}</table>` : ''}
    ${paragraphs(after)}
  </body>
</html>`;
}

/** The receipt of a payment, as text and HTML, in the user's language. */
export function paymentReceiptMail(
  language: Language,
  to: string,
  name: string,
  facts: ReceiptFacts,
): MailMessage {
  const copy = billingCopy[language];
  const table: [string, string][] = [
    [copy.plan[facts.plan], facts.amount],
    [copy.paidAt, facts.paidAt],
    [copy.periodEnd, facts.periodEnd],
    ...(facts.card ? ([[copy.card, facts.card]] as [string, string][]) : []),
  ];
  const notes = [
    ...(facts.giftAmount ? [copy.gift(facts.giftAmount)] : []),
    ...(facts.refundUntil ? [copy.refund(facts.refundUntil)] : []),
    copy.honesty,
    copy.signature,
  ];
  const text = [
    copy.greeting(name),
    '',
    copy.receiptIntro,
    '',
    ...table.map(([label, value]) => `  ${label}: ${value}`),
    '',
    ...notes,
  ].join('\n');
  return {
    to,
    subject: copy.receiptSubject,
    text,
    html: htmlMail(language, [copy.greeting(name), copy.receiptIntro], table, notes),
  };
}

/** The confirmation of a refund, in the user's language. */
export function refundMail(
  language: Language,
  to: string,
  name: string,
  amount: string,
): MailMessage {
  const copy = billingCopy[language];
  const paragraphs = [
    copy.greeting(name),
    copy.refundIntro(amount),
    copy.refundAccess,
    copy.signature,
  ];
  return {
    to,
    subject: copy.refundSubject,
    text: paragraphs.join('\n\n'),
    html: htmlMail(language, paragraphs),
  };
}

/** A second subscription's payment, refunded at once: why, in the user's language (issue 18). */
export function duplicateRefundMail(
  language: Language,
  to: string,
  name: string,
  amount: string,
): MailMessage {
  const copy = billingCopy[language];
  const paragraphs = [
    copy.greeting(name),
    copy.duplicateIntro(amount),
    copy.duplicateKept,
    copy.signature,
  ];
  return {
    to,
    subject: copy.duplicateSubject,
    text: paragraphs.join('\n\n'),
    html: htmlMail(language, paragraphs),
  };
}

interface SignInAttackCopy {
  subject: string;
  greeting: (name: string) => string;
  seen: string;
  stillWorks: string;
  ifNotYou: (url: string) => string;
  support: (email: string) => string;
  signature: string;
}

const signInAttackCopy: Record<Language, SignInAttackCopy> = {
  es: {
    subject: 'Vimos intentos fallidos de entrar en tu cuenta',
    greeting: (name) => `Hola, ${name}:`,
    seen: 'Vimos varios intentos fallidos de iniciar sesión en tu cuenta de Tradebot desde lugares donde nunca iniciaste sesión. Los frenamos: desde esos lugares no se puede seguir probando contraseñas.',
    stillWorks:
      'Tu cuenta no está bloqueada: tu contraseña sigue funcionando desde tus dispositivos habituales.',
    ifNotYou: (url) =>
      `Si no fuiste tú, te recomendamos cambiar tu contraseña y no usarla en otros sitios. Puedes hacerlo desde «¿Olvidaste tu contraseña?»: ${url}`,
    support: (email) =>
      `Si algo no te parece bien, escríbenos a ${email}. Nunca te pediremos tu contraseña.`,
    signature: 'El equipo de Tradebot',
  },
  pt: {
    subject: 'Vimos tentativas malsucedidas de entrar na sua conta',
    greeting: (name) => `Olá, ${name}:`,
    seen: 'Vimos várias tentativas malsucedidas de entrar na sua conta da Tradebot a partir de lugares onde você nunca entrou. Nós as bloqueamos: desses lugares não é possível continuar testando senhas.',
    stillWorks:
      'Sua conta não está bloqueada: sua senha continua funcionando nos seus dispositivos de sempre.',
    ifNotYou: (url) =>
      `Se não foi você, recomendamos trocar sua senha e não usá-la em outros sites. Você pode fazer isso em «Esqueceu sua senha?»: ${url}`,
    support: (email) =>
      `Se algo não parecer certo, escreva para ${email}. Nunca pediremos sua senha.`,
    signature: 'Equipe Tradebot',
  },
};

/**
 * Sign-ins to a user's account refused by the limits from places it never signed in from
 * (decision 079), in the account's language. It names no address: the attempts come from many.
 */
export function signInAttackMail(
  language: Language,
  to: string,
  name: string,
  links: { forgotPasswordUrl: string; supportEmail: string },
): MailMessage {
  const copy = signInAttackCopy[language];
  const paragraphs = [
    copy.greeting(name),
    copy.seen,
    copy.stillWorks,
    copy.ifNotYou(links.forgotPasswordUrl),
    copy.support(links.supportEmail),
    copy.signature,
  ];
  return {
    to,
    subject: copy.subject,
    text: paragraphs.join('\n\n'),
    html: htmlMail(language, paragraphs),
  };
}

/**
 * The same, for an admin of the support console: in Spanish, the operator's language, as every
 * mail to support is. Admins have no forgot-password: a new password is set by the operator.
 */
export function consoleSignInAttackMail(
  to: string,
  name: string,
  links: { consoleUrl: string; supportEmail: string },
): MailMessage {
  const paragraphs = [
    `Hola, ${name}:`,
    `Vimos varios intentos fallidos de entrar en la consola de soporte (${links.consoleUrl}) con tu correo, desde lugares donde nunca entraste. Los frenamos, y quedaron en el registro de auditoría de la consola.`,
    'Tu acceso no está bloqueado: tu contraseña sigue funcionando desde tus equipos habituales, y sin el código de tu aplicación de autenticación nadie entra.',
    `Si crees que alguien conoce tu contraseña, pide al responsable técnico que te dé una nueva, y avisa a ${links.supportEmail}.`,
    'Tradebot',
  ];
  return {
    to,
    subject: '[Consola] Intentos fallidos de entrar con tu cuenta',
    text: paragraphs.join('\n\n'),
    html: htmlMail('es', paragraphs),
  };
}

interface AccountCopy {
  greeting: (name: string) => string;
  passwordSubject: string;
  passwordIntro: (when: string) => string;
  passwordOthers: string;
  passwordNotYou: string;
  deletedSubject: string;
  deletedIntro: string;
  deletedErased: string;
  deletedKept: (years: number) => string;
  deletedSubscription: string;
  deletedBroker: string;
  signature: string;
}

const accountCopy: Record<Language, AccountCopy> = {
  es: {
    greeting: (name) => `Hola, ${name}:`,
    passwordSubject: 'Cambiaste la contraseña de Tradebot',
    passwordIntro: (when) => `La contraseña de tu cuenta de Tradebot se cambió el ${when} (UTC).`,
    passwordOthers:
      'Cerramos la sesión en tus otros dispositivos; el que usaste para el cambio sigue conectado.',
    passwordNotYou:
      'Si no fuiste tú, recupera tu cuenta ahora: pide un código en este enlace y elige una contraseña nueva. Eso cierra todas las sesiones, también la de quien la cambió.',
    deletedSubject: 'Eliminamos tu cuenta de Tradebot',
    deletedIntro:
      'Eliminamos tu cuenta de Tradebot como pediste. El robot se detuvo y cerramos las operaciones que tenía abiertas.',
    deletedErased:
      'Borramos tus datos personales: nombre, teléfono, contraseña, sesiones, las credenciales de la plataforma de trading, el historial de operaciones y tus mensajes a soporte.',
    deletedKept: (years) =>
      `Conservamos solo los pagos y sus recibos (importe, fecha, plan y los últimos 4 dígitos de la tarjeta) durante ${String(years)} años, porque la ley tributaria y comercial nos obliga; no están asociados a tu nombre ni a tu correo.`,
    deletedSubscription:
      'Tu suscripción quedó cancelada: no habrá más cobros. Un reembolso solo corresponde si lo permiten los plazos de 7 y 30 días de los términos.',
    deletedBroker:
      'Borrar tu cuenta no cierra tu cuenta en la plataforma de trading. En la plataforma de demostración de Tradebot el saldo es simulado: no hay dinero real que retirar.',
    signature: 'El equipo de Tradebot',
  },
  pt: {
    greeting: (name) => `Olá, ${name}:`,
    passwordSubject: 'Você alterou a senha da Tradebot',
    passwordIntro: (when) => `A senha da sua conta da Tradebot foi alterada em ${when} (UTC).`,
    passwordOthers:
      'Encerramos a sessão nos seus outros dispositivos; o que você usou para a alteração continua conectado.',
    passwordNotYou:
      'Se não foi você, recupere sua conta agora: peça um código neste link e escolha uma nova senha. Isso encerra todas as sessões, inclusive a de quem a alterou.',
    deletedSubject: 'Excluímos sua conta da Tradebot',
    deletedIntro:
      'Excluímos sua conta da Tradebot como você pediu. O robô parou e fechamos as operações que estavam abertas.',
    deletedErased:
      'Apagamos seus dados pessoais: nome, telefone, senha, sessões, as credenciais da plataforma de trading, o histórico de operações e suas mensagens ao suporte.',
    deletedKept: (years) =>
      `Guardamos apenas os pagamentos e seus recibos (valor, data, plano e os 4 últimos dígitos do cartão) por ${String(years)} anos, porque a lei tributária e comercial nos obriga; eles não estão associados ao seu nome nem ao seu e-mail.`,
    deletedSubscription:
      'Sua assinatura foi cancelada: não haverá mais cobranças. Um reembolso só cabe se os prazos de 7 e 30 dias dos termos permitirem.',
    deletedBroker:
      'Excluir sua conta não fecha sua conta na plataforma de trading. Na plataforma de demonstração do Tradebot o saldo é simulado: não há dinheiro real para sacar.',
    signature: 'Equipe Tradebot',
  },
};

/**
 * "Your password was changed" (issue 23), with the link to recover the account if it was not
 * the owner. `recoverUrl` is built from the configured origin, never from a request.
 */
export function passwordChangedMail(
  language: Language,
  to: string,
  facts: { name: string; changedAt: string; recoverUrl: string },
): MailMessage {
  const copy = accountCopy[language];
  const before = [
    copy.greeting(facts.name),
    copy.passwordIntro(facts.changedAt),
    copy.passwordOthers,
    copy.passwordNotYou,
  ];
  const text = [...before, facts.recoverUrl, '', copy.signature].join('\n\n');
  const html = htmlMail(language, before).replace(
    '</body>',
    `  <p><a href="${escapeHtml(facts.recoverUrl)}">${escapeHtml(facts.recoverUrl)}</a></p>\n    <p>${escapeHtml(copy.signature)}</p>\n  </body>`,
  );
  return { to, subject: copy.passwordSubject, text, html };
}

/** The confirmation that an account was deleted: what was erased, what is kept and why. */
export function accountDeletedMail(
  language: Language,
  to: string,
  facts: { name: string; keptYears: number },
): MailMessage {
  const copy = accountCopy[language];
  const paragraphs = [
    copy.greeting(facts.name),
    copy.deletedIntro,
    copy.deletedErased,
    copy.deletedKept(facts.keptYears),
    copy.deletedSubscription,
    copy.deletedBroker,
    copy.signature,
  ];
  return {
    to,
    subject: copy.deletedSubject,
    text: paragraphs.join('\n\n'),
    html: htmlMail(language, paragraphs),
  };
}
