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
import { cardFieldPatterns, problemField, type CardForm, type CardProblem } from './card';

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
<script src="${simulatedPaymentsPath}/checkout.js" defer></script>
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
  /** What a refused submission sent, written back into its fields (decision 156). */
  values?: Partial<CardForm>;
  declined?: boolean;
  problems?: CardProblem[];
}

interface CardFields {
  language: Language;
  values?: Partial<CardForm> | undefined;
  problems?: CardProblem[] | undefined;
}

/**
 * One field, and beside it what is wrong with it (`aria-describedby`); the first field with a
 * problem takes the focus. Its `pattern` lets the page's script clear the problem once the
 * field is corrected; the form is `novalidate`, so browsers do not check it themselves.
 */
function field(
  { language, values, problems = [] }: CardFields,
  name: keyof CardForm,
  label: string,
  attributes: string,
): string {
  const t = translator(language, 'checkout');
  const own = problems.filter((problem) => problemField[problem] === name);
  const first = problems[0] !== undefined && problemField[problems[0]] === name;
  const invalid =
    own.length > 0
      ? ` aria-invalid="true" aria-describedby="${name}-problem"${first ? ' autofocus' : ''}`
      : '';
  const problemText =
    own.length > 0
      ? `\n<span class="problem" id="${name}-problem">${own.map((problem) => escapeHtml(t(`problems.${problem}`))).join(' ')}</span>`
      : '';
  return `<p class="field"><label for="${name}">${escapeHtml(label)}</label>
<input id="${name}" name="${name}" ${attributes} pattern="${escapeHtml(cardFieldPatterns[name])}" value="${escapeHtml(values?.[name] ?? '')}"${invalid}>${problemText}</p>`;
}

/**
 * The card fields, with the standard autocomplete attributes (cc-name, cc-number, cc-exp,
 * cc-csc), holding what was sent. A number that is no test card may be a real one: neither it
 * nor its code is written back into the page.
 */
function cardFields(input: CardFields): string {
  const t = translator(input.language, 'checkout');
  const fields = input.problems?.includes('not_a_test_card')
    ? { ...input, values: { ...input.values, number: '', cvc: '' } }
    : input;
  return `${field(fields, 'name', t('name'), 'autocomplete="cc-name" required maxlength="100"')}
${field(fields, 'number', t('number'), 'autocomplete="cc-number" inputmode="numeric" required maxlength="23"')}
<div class="row">
${field(fields, 'expiry', t('expiry'), 'autocomplete="cc-exp" placeholder="MM/AA" required maxlength="7"')}
${field(fields, 'cvc', t('cvc'), 'autocomplete="cc-csc" inputmode="numeric" required maxlength="4"')}
</div>`;
}

/** A declined card is about the whole form: said above it. A field's problem is said beside it. */
function declinedNotice(language: Language, declined?: boolean): string {
  const t = translator(language, 'checkout');
  return declined
    ? `<div class="error" role="alert"><p>${escapeHtml(t('declined'))}</p></div>`
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
  values?: Partial<CardForm>;
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
${declinedNotice(input.language, input.declined)}
<form method="post" action="${simulatedPaymentsPath}/card?session=${escapeHtml(input.token)}" novalidate>
${cardFields(input)}
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
${declinedNotice(input.language, input.declined)}
<form method="post" action="${simulatedPaymentsPath}/checkout/${escapeHtml(input.sessionId)}" novalidate>
${cardFields(input)}
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
.problem{display:block;color:#a61b1b;font-size:.9rem;margin-top:.25rem}
.problem[hidden]{display:none}
input[aria-invalid=true]{border-color:#d64545;border-width:2px}
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

/**
 * The page's only script (decision 156), from our origin as the CSP asks: a field refused by
 * the server loses its problem once corrected, so no stale message stays beside it; typed back
 * to the refused value, or still wrong, it shows the problem again. Without it the page works as
 * before: the server checks every field on each submission.
 */
export const checkoutScript = `'use strict';
document.querySelectorAll('input[aria-invalid="true"]').forEach(function (input) {
  var problemId = input.getAttribute('aria-describedby');
  var problem = document.getElementById(problemId);
  var refused = input.value;
  var pattern = new RegExp('^(?:' + input.getAttribute('pattern') + ')$', 'u');
  input.addEventListener('input', function () {
    var corrected = input.value !== refused && pattern.test(input.value);
    problem.hidden = corrected;
    input.setAttribute('aria-invalid', String(!corrected));
    if (corrected) input.removeAttribute('aria-describedby');
    else input.setAttribute('aria-describedby', problemId);
  });
});
`;
