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
import { translator } from '../../i18n';
import type { CardProblem } from './card';

/**
 * The simulated provider's hosted checkout page: server-rendered HTML that works without
 * JavaScript and has no inline script or style (a strict CSP), in the buyer's language (its
 * text is the `checkout` catalogue of the server's i18next: decision 100).
 */

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
  const t = translator(language, 'checkout');
  return `${field('name', t('name'), 'name="name" autocomplete="cc-name" required maxlength="100"', values?.name)}
${field('number', t('number'), 'name="number" autocomplete="cc-number" inputmode="numeric" required maxlength="23"')}
<div class="row">
${field('expiry', t('expiry'), 'name="expiry" autocomplete="cc-exp" placeholder="MM/AA" required maxlength="7"', values?.expiry)}
${field('cvc', t('cvc'), 'name="cvc" autocomplete="cc-csc" inputmode="numeric" required maxlength="4"')}
</div>`;
}

function errorsOf(language: Language, declined?: boolean, problems?: CardProblem[]): string {
  const t = translator(language, 'checkout');
  const errors = [
    ...(declined ? [t('declined')] : []),
    ...(problems ?? []).map((problem) => t(`problems.${problem}`)),
  ];
  return errors.length > 0
    ? `<div class="error" role="alert">${errors.map((error) => `<p>${escapeHtml(error)}</p>`).join('')}</div>`
    : '';
}

function testCardList(language: Language): string {
  const t = translator(language, 'checkout');
  return `<section class="test-cards">
<p>${escapeHtml(t('testCards'))}</p>
<ul>
<li><code>${simulatedTestCards.pays}</code>: ${escapeHtml(t('pays'))}</li>
<li><code>${simulatedTestCards.declined}</code>: ${escapeHtml(t('declinedCard'))}</li>
<li><code>${simulatedTestCards.renewalsDeclined}</code>: ${escapeHtml(t('renewalsDeclined'))}</li>
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
  const t = translator(input.language, 'checkout');
  const due = input.dueCents === null ? null : formatAmount(input.numberLocale, input.dueCents);
  const body = `<p class="notice">${escapeHtml(t('simulated'))}</p>
<h1>${escapeHtml(t('cardTitle'))}</h1>
<section class="summary" aria-label="${escapeHtml(t(`plan.${input.plan}`))}">
<p class="plan">${escapeHtml(t(`plan.${input.plan}`))}</p>
<p>${escapeHtml(t('currentCard', { card: input.card }))}</p>
${due ? `<p>${escapeHtml(t('due', { amount: due }))}</p>` : ''}
</section>
${errorsOf(input.language, input.declined, input.problems)}
<form method="post" action="${simulatedPaymentsPath}/card?session=${escapeHtml(input.token)}">
${cardFields(input.language, input.values)}
<button type="submit">${escapeHtml(due ? t('saveAndPay', { amount: due }) : t('save'))}</button>
</form>
<p><a href="${escapeHtml(input.returnUrl)}">${escapeHtml(t('keepCard'))}</a></p>
<p class="muted">${escapeHtml(t('noCardKept'))}</p>
${testCardList(input.language)}`;
  return layout(input.language, t('cardTitle'), body);
}

export function cardPageGonePage(language: Language): string {
  const t = translator(language, 'checkout');
  return layout(
    language,
    t('cardGone'),
    `<h1>${escapeHtml(t('cardGone'))}</h1>
<p>${escapeHtml(t('cardGoneText'))}</p>
<p><a class="button" href="/payment">${escapeHtml(t('back'))}</a></p>`,
  );
}

export function checkoutPage(input: CheckoutPageInput): string {
  const t = translator(input.language, 'checkout');
  const amount = formatAmount(input.numberLocale, input.amountCents);
  const gift = plans[input.plan].brokerGiftCents;
  const trial = input.trialEnd ? formatDay(input.language, input.trialEnd) : null;
  const body = `<p class="notice">${escapeHtml(t('simulated'))}</p>
<h1>${escapeHtml(t('title'))}</h1>
<section class="summary" aria-label="${escapeHtml(t(`plan.${input.plan}`))}">
<p class="plan">${escapeHtml(t(`plan.${input.plan}`))}</p>
<p class="amount">${escapeHtml(amount)} <span>${escapeHtml(t(`per.${input.plan}`))}</span></p>
${gift > 0 ? `<p>${escapeHtml(t('gift', { amount: formatAmount(input.numberLocale, gift) }))}</p>` : ''}
${trial ? `<p>${escapeHtml(t('trial', { day: trial }))}</p>` : ''}
<p class="muted">${escapeHtml(t('renews'))}</p>
<p class="muted">${escapeHtml(t('email'))}: ${escapeHtml(input.email)}</p>
</section>
${errorsOf(input.language, input.declined, input.problems)}
<form method="post" action="${simulatedPaymentsPath}/checkout/${escapeHtml(input.sessionId)}">
${cardFields(input.language, input.values)}
<button type="submit">${escapeHtml(trial ? t('subscribe') : t('pay', { amount }))}</button>
</form>
<p><a href="${escapeHtml(input.cancelUrl)}">${escapeHtml(t('cancel'))}</a></p>
<p class="muted">${escapeHtml(t('noCardKept'))}</p>
${testCardList(input.language)}`;
  return layout(input.language, t('title'), body);
}

/** A second checkout refused uncharged: the customer already has a subscription running. */
export function checkoutSubscribedPage(language: Language): string {
  const t = translator(language, 'checkout');
  return layout(
    language,
    t('subscribedTitle'),
    `<h1>${escapeHtml(t('subscribedTitle'))}</h1>
<div class="error" role="alert"><p>${escapeHtml(t('subscribedText'))}</p></div>
<p><a class="button" href="/payment">${escapeHtml(t('back'))}</a></p>`,
  );
}

export function checkoutGonePage(language: Language): string {
  const t = translator(language, 'checkout');
  return layout(
    language,
    t('gone'),
    `<h1>${escapeHtml(t('gone'))}</h1>
<p>${escapeHtml(t('goneText'))}</p>
<p><a class="button" href="/payment">${escapeHtml(t('back'))}</a></p>`,
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
