import { escape as escapeHtml } from 'html-escaper';
import {
  plans,
  simulatedPaymentsPath,
  simulatedTestCards,
  type Language,
  type NumberLocale,
  type PlanId,
} from '@tradebot/contract';
import { formatAmount, formatDay } from '../../formats';
import type { CardProblem } from './card';

/**
 * The simulated provider's hosted checkout page: server-rendered HTML that works without
 * JavaScript and has no inline script or style (a strict CSP), in the buyer's language.
 */
const copy = {
  es: {
    title: 'Pago seguro',
    simulated:
      'Pasarela de pago simulada de Tradebot: no se cobra dinero real. Usa una de las tarjetas de prueba.',
    plan: { monthly: 'Plan mensual', yearly: 'Plan anual' } satisfies Record<PlanId, string>,
    per: { monthly: 'por mes', yearly: 'por año' } satisfies Record<PlanId, string>,
    gift: (amount: string) =>
      `Incluye un regalo de ${amount} en tu cuenta de la plataforma de trading.`,
    trial: (day: string) =>
      `Hoy no se cobra nada: tu mes gratis sigue y el primer cobro será el ${day}.`,
    renews: 'Se renueva automáticamente; puedes cancelar cuando quieras desde tu perfil.',
    email: 'Correo electrónico',
    name: 'Nombre en la tarjeta',
    number: 'Número de tarjeta',
    expiry: 'Vencimiento (MM/AA)',
    cvc: 'Código de seguridad (CVC)',
    pay: (amount: string) => `Pagar ${amount}`,
    subscribe: 'Suscribirme',
    cancel: 'Volver sin pagar',
    declined: 'Tu tarjeta fue rechazada. No se hizo ningún cobro. Prueba con otra tarjeta.',
    problems: {
      name_required: 'Escribe el nombre como figura en la tarjeta.',
      invalid_number: 'El número de tarjeta no es válido.',
      not_a_test_card:
        'Esta pasarela simulada solo acepta las tarjetas de prueba de abajo. No escribas una tarjeta real.',
      invalid_expiry: 'Escribe el vencimiento como MM/AA.',
      expired: 'La tarjeta está vencida.',
      invalid_cvc: 'El código de seguridad tiene 3 o 4 dígitos.',
    } satisfies Record<CardProblem, string>,
    testCards: 'Tarjetas de prueba (cualquier nombre, un vencimiento futuro y cualquier CVC):',
    pays: 'el pago se aprueba',
    declinedCard: 'el pago se rechaza',
    renewalsDeclined: 'se aprueba el primer pago y se rechazan las renovaciones',
    gone: 'Este pago ya no está disponible',
    goneText: 'El enlace venció o no existe. Vuelve a la aplicación y elige un plan otra vez.',
    back: 'Volver a Tradebot',
    noCardKept:
      'Tradebot no guarda el número de tu tarjeta: solo la marca y los últimos 4 dígitos.',
    cardTitle: 'Cambiar la tarjeta',
    currentCard: (card: string) => `Tarjeta actual: ${card}.`,
    due: (amount: string) =>
      `No pudimos cobrar ${amount} con tu tarjeta actual. Al guardar la nueva, cobramos ese importe otra vez con ella.`,
    saveAndPay: (amount: string) => `Guardar y pagar ${amount}`,
    save: 'Guardar la tarjeta',
    keepCard: 'Volver sin cambiar la tarjeta',
    cardGone: 'Este enlace ya no sirve',
    cardGoneText:
      'El enlace para cambiar la tarjeta vence en una hora. Vuelve a la aplicación y ábrelo otra vez.',
    subscribedTitle: 'Ya tienes una suscripción',
    subscribedText:
      'Esta cuenta ya pagó una suscripción, así que no cobramos este pago y cerramos este enlace. Cada cuenta tiene una sola suscripción.',
  },
  pt: {
    title: 'Pagamento seguro',
    simulated:
      'Gateway de pagamento simulado da Tradebot: nenhum dinheiro real é cobrado. Use um dos cartões de teste.',
    plan: { monthly: 'Plano mensal', yearly: 'Plano anual' } satisfies Record<PlanId, string>,
    per: { monthly: 'por mês', yearly: 'por ano' } satisfies Record<PlanId, string>,
    gift: (amount: string) =>
      `Inclui um presente de ${amount} na sua conta da plataforma de trading.`,
    trial: (day: string) =>
      `Nada é cobrado hoje: seu mês grátis continua e a primeira cobrança será em ${day}.`,
    renews: 'Renova automaticamente; você pode cancelar quando quiser no seu perfil.',
    email: 'E-mail',
    name: 'Nome no cartão',
    number: 'Número do cartão',
    expiry: 'Validade (MM/AA)',
    cvc: 'Código de segurança (CVC)',
    pay: (amount: string) => `Pagar ${amount}`,
    subscribe: 'Assinar',
    cancel: 'Voltar sem pagar',
    declined: 'Seu cartão foi recusado. Nada foi cobrado. Tente outro cartão.',
    problems: {
      name_required: 'Escreva o nome como aparece no cartão.',
      invalid_number: 'O número do cartão não é válido.',
      not_a_test_card:
        'Este gateway simulado só aceita os cartões de teste abaixo. Não digite um cartão real.',
      invalid_expiry: 'Escreva a validade como MM/AA.',
      expired: 'O cartão está vencido.',
      invalid_cvc: 'O código de segurança tem 3 ou 4 dígitos.',
    } satisfies Record<CardProblem, string>,
    testCards: 'Cartões de teste (qualquer nome, uma validade futura e qualquer CVC):',
    pays: 'o pagamento é aprovado',
    declinedCard: 'o pagamento é recusado',
    renewalsDeclined: 'o primeiro pagamento é aprovado e as renovações são recusadas',
    gone: 'Este pagamento não está mais disponível',
    goneText: 'O link expirou ou não existe. Volte ao aplicativo e escolha um plano novamente.',
    back: 'Voltar para a Tradebot',
    noCardKept:
      'A Tradebot não guarda o número do seu cartão: só a bandeira e os 4 últimos dígitos.',
    cardTitle: 'Trocar o cartão',
    currentCard: (card: string) => `Cartão atual: ${card}.`,
    due: (amount: string) =>
      `Não conseguimos cobrar ${amount} no seu cartão atual. Ao salvar o novo, cobramos esse valor de novo nele.`,
    saveAndPay: (amount: string) => `Salvar e pagar ${amount}`,
    save: 'Salvar o cartão',
    keepCard: 'Voltar sem trocar o cartão',
    cardGone: 'Este link não vale mais',
    cardGoneText:
      'O link para trocar o cartão vence em uma hora. Volte ao aplicativo e abra-o de novo.',
    subscribedTitle: 'Você já tem uma assinatura',
    subscribedText:
      'Esta conta já pagou uma assinatura, então não cobramos este pagamento e fechamos este link. Cada conta tem uma só assinatura.',
  },
} as const;

function layout(language: Language, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Tradebot</title>
<link rel="stylesheet" href="${simulatedPaymentsPath}/checkout.css">
</head>
<body>
<main class="checkout">
${body}
</main>
</body>
</html>`;
}

export interface CheckoutPageInput {
  language: Language;
  /** How amounts are written: the language with the buyer's country (decision 089). */
  numberLocale: NumberLocale;
  sessionId: string;
  email: string;
  plan: PlanId;
  amountCents: number;
  trialEnd: Date | null;
  cancelUrl: string;
  /** Kept from a refused submission (never the card number or the CVC). */
  values?: { name: string; expiry: string };
  declined?: boolean;
  problems?: CardProblem[];
}

function field(id: string, label: string, attributes: string, value = ''): string {
  return `<p class="field"><label for="${id}">${escapeHtml(label)}</label>
<input id="${id}" ${attributes} value="${escapeHtml(value)}"></p>`;
}

/** The card fields, with the standard autocomplete attributes (cc-name, cc-number, cc-exp, cc-csc). */
function cardFields(language: Language, values?: { name: string; expiry: string }): string {
  const text = copy[language];
  return `${field('name', text.name, 'name="name" autocomplete="cc-name" required maxlength="100"', values?.name)}
${field('number', text.number, 'name="number" autocomplete="cc-number" inputmode="numeric" required maxlength="23"')}
<div class="row">
${field('expiry', text.expiry, 'name="expiry" autocomplete="cc-exp" placeholder="MM/AA" required maxlength="7"', values?.expiry)}
${field('cvc', text.cvc, 'name="cvc" autocomplete="cc-csc" inputmode="numeric" required maxlength="4"')}
</div>`;
}

function errorsOf(language: Language, declined?: boolean, problems?: CardProblem[]): string {
  const text = copy[language];
  const errors = [
    ...(declined ? [text.declined] : []),
    ...(problems ?? []).map((problem) => text.problems[problem]),
  ];
  return errors.length > 0
    ? `<div class="error" role="alert">${errors.map((error) => `<p>${escapeHtml(error)}</p>`).join('')}</div>`
    : '';
}

function testCardList(language: Language): string {
  const text = copy[language];
  return `<section class="test-cards">
<p>${escapeHtml(text.testCards)}</p>
<ul>
<li><code>${simulatedTestCards.pays}</code>: ${escapeHtml(text.pays)}</li>
<li><code>${simulatedTestCards.declined}</code>: ${escapeHtml(text.declinedCard)}</li>
<li><code>${simulatedTestCards.renewalsDeclined}</code>: ${escapeHtml(text.renewalsDeclined)}</li>
</ul>
</section>`;
}

export interface CardUpdatePageInput {
  language: Language;
  numberLocale: NumberLocale;
  token: string;
  plan: PlanId;
  card: string;
  /** A past-due charge, tried again with the new card. */
  dueCents: number | null;
  returnUrl: string;
  values?: { name: string; expiry: string };
  declined?: boolean;
  problems?: CardProblem[];
}

/** The simulated provider's "customer portal": change the card, and pay a past-due charge. */
export function cardUpdatePage(input: CardUpdatePageInput): string {
  const text = copy[input.language];
  const due = input.dueCents === null ? null : formatAmount(input.numberLocale, input.dueCents);
  const body = `<p class="notice">${escapeHtml(text.simulated)}</p>
<h1>${escapeHtml(text.cardTitle)}</h1>
<section class="summary" aria-label="${escapeHtml(text.plan[input.plan])}">
<p class="plan">${escapeHtml(text.plan[input.plan])}</p>
<p>${escapeHtml(text.currentCard(input.card))}</p>
${due ? `<p>${escapeHtml(text.due(due))}</p>` : ''}
</section>
${errorsOf(input.language, input.declined, input.problems)}
<form method="post" action="${simulatedPaymentsPath}/card?session=${escapeHtml(input.token)}">
${cardFields(input.language, input.values)}
<button type="submit">${escapeHtml(due ? text.saveAndPay(due) : text.save)}</button>
</form>
<p><a href="${escapeHtml(input.returnUrl)}">${escapeHtml(text.keepCard)}</a></p>
<p class="muted">${escapeHtml(text.noCardKept)}</p>
${testCardList(input.language)}`;
  return layout(input.language, text.cardTitle, body);
}

export function cardPageGonePage(language: Language): string {
  const text = copy[language];
  return layout(
    language,
    text.cardGone,
    `<h1>${escapeHtml(text.cardGone)}</h1>
<p>${escapeHtml(text.cardGoneText)}</p>
<p><a class="button" href="/payment">${escapeHtml(text.back)}</a></p>`,
  );
}

export function checkoutPage(input: CheckoutPageInput): string {
  const text = copy[input.language];
  const amount = formatAmount(input.numberLocale, input.amountCents);
  const gift = plans[input.plan].brokerGiftCents;
  const trial = input.trialEnd ? formatDay(input.language, input.trialEnd) : null;
  const body = `<p class="notice">${escapeHtml(text.simulated)}</p>
<h1>${escapeHtml(text.title)}</h1>
<section class="summary" aria-label="${escapeHtml(text.plan[input.plan])}">
<p class="plan">${escapeHtml(text.plan[input.plan])}</p>
<p class="amount">${escapeHtml(amount)} <span>${escapeHtml(text.per[input.plan])}</span></p>
${gift > 0 ? `<p>${escapeHtml(text.gift(formatAmount(input.numberLocale, gift)))}</p>` : ''}
${trial ? `<p>${escapeHtml(text.trial(trial))}</p>` : ''}
<p class="muted">${escapeHtml(text.renews)}</p>
<p class="muted">${escapeHtml(text.email)}: ${escapeHtml(input.email)}</p>
</section>
${errorsOf(input.language, input.declined, input.problems)}
<form method="post" action="${simulatedPaymentsPath}/checkout/${escapeHtml(input.sessionId)}">
${cardFields(input.language, input.values)}
<button type="submit">${escapeHtml(trial ? text.subscribe : text.pay(amount))}</button>
</form>
<p><a href="${escapeHtml(input.cancelUrl)}">${escapeHtml(text.cancel)}</a></p>
<p class="muted">${escapeHtml(text.noCardKept)}</p>
${testCardList(input.language)}`;
  return layout(input.language, text.title, body);
}

/** A second checkout refused uncharged: the customer already has a subscription running. */
export function checkoutSubscribedPage(language: Language): string {
  const text = copy[language];
  return layout(
    language,
    text.subscribedTitle,
    `<h1>${escapeHtml(text.subscribedTitle)}</h1>
<div class="error" role="alert"><p>${escapeHtml(text.subscribedText)}</p></div>
<p><a class="button" href="/payment">${escapeHtml(text.back)}</a></p>`,
  );
}

export function checkoutGonePage(language: Language): string {
  const text = copy[language];
  return layout(
    language,
    text.gone,
    `<h1>${escapeHtml(text.gone)}</h1>
<p>${escapeHtml(text.goneText)}</p>
<p><a class="button" href="/payment">${escapeHtml(text.back)}</a></p>`,
  );
}

export const checkoutCss = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#15202b;background:#f3f6f8}
.checkout{max-width:32rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
.notice{background:#fff6dc;border:1px solid #e0b84c;border-radius:.5rem;padding:.75rem;margin:0}
.summary{background:#fff;border:1px solid #d5dde3;border-radius:.75rem;padding:1rem;margin-bottom:1rem}
.summary p{margin:.25rem 0}
.plan{font-weight:600}
.amount{font-size:1.5rem;font-weight:700}
.amount span{font-size:1rem;font-weight:400;color:#4a5a68}
.muted{color:#4a5a68;font-size:.9rem}
.error{background:#fdecec;border:1px solid #d64545;color:#8a1c1c;border-radius:.5rem;padding:.5rem .75rem;margin-bottom:1rem}
.error p{margin:.25rem 0}
form{background:#fff;border:1px solid #d5dde3;border-radius:.75rem;padding:1rem}
.field{margin:0 0 .75rem}
.row{display:flex;gap:.75rem;flex-wrap:wrap;align-items:flex-end}
.row .field{flex:1 1 8rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #8a99a6;border-radius:.5rem;min-height:2.75rem}
input:focus,button:focus,a:focus{outline:3px solid #1d6fd8;outline-offset:2px}
button,.button{display:inline-block;width:100%;font:inherit;font-weight:600;padding:.75rem 1rem;border:0;border-radius:.5rem;background:#137a3e;color:#fff;cursor:pointer;text-align:center;text-decoration:none;min-height:2.75rem}
a{color:#1d5fb4}
.test-cards{font-size:.9rem;color:#4a5a68}
.test-cards ul{padding-left:1.25rem}
code{font-size:.95rem;color:#15202b}
`;
