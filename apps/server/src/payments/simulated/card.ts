import { simulatedTestCards } from '@tradebot/contract';

/**
 * Card checks of the simulated checkout. It takes only its published test cards, so that no
 * real card number is ever typed into it; and it keeps none: brand and last four digits only.
 */
export type CardOutcome = 'pays' | 'declined' | 'renewals_declined';

export interface CardForm {
  name: string;
  number: string;
  expiry: string;
  cvc: string;
}

export type CardProblem =
  | 'name_required'
  | 'invalid_number'
  | 'not_a_test_card'
  | 'invalid_expiry'
  | 'expired'
  | 'invalid_cvc';

export type CardCheck =
  | { ok: true; outcome: CardOutcome; brand: string; last4: string }
  | { ok: false; problems: CardProblem[] };

const digitsOf = (text: string) => text.replace(/[\s-]/g, '');

function luhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const testCards: Record<string, CardOutcome> = {
  [digitsOf(simulatedTestCards.pays)]: 'pays',
  [digitsOf(simulatedTestCards.declined)]: 'declined',
  [digitsOf(simulatedTestCards.renewalsDeclined)]: 'renewals_declined',
};

/** "MM/YY", "MM / YY" or "MM/YYYY": the last day of that month must not be past. */
function expiryProblem(expiry: string, now: Date): CardProblem | undefined {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  if (!match?.[1] || !match[2]) return 'invalid_expiry';
  const month = Number(match[1]);
  if (month < 1 || month > 12) return 'invalid_expiry';
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  const firstOfNextMonth = Date.UTC(year, month, 1);
  return firstOfNextMonth <= now.getTime() ? 'expired' : undefined;
}

/** Which field of the form each problem is about: it is shown beside that field. */
export const problemField: Record<CardProblem, keyof CardForm> = {
  name_required: 'name',
  invalid_number: 'number',
  not_a_test_card: 'number',
  invalid_expiry: 'expiry',
  expired: 'expiry',
  invalid_cvc: 'cvc',
};

const separators = String.raw`[\s\-]*`;

/**
 * The checks below as HTML `pattern`s (the whole value must match), for the page's script to
 * tell when a refused field was corrected (decision 156). Whether a date is past is the
 * server's to say: the expiry's pattern is its format only.
 */
export const cardFieldPatterns: Record<keyof CardForm, string> = {
  name: String.raw`.*\S.*\S.*`,
  number: Object.values(simulatedTestCards)
    .map((card) => `${separators}${digitsOf(card).split('').join(separators)}${separators}`)
    .join('|'),
  expiry: String.raw`\s*(0?[1-9]|1[0-2])\s*/\s*(\d{2}|\d{4})\s*`,
  cvc: String.raw`\s*\d{3,4}\s*`,
};

export function checkCard(form: CardForm, now: Date): CardCheck {
  const problems: CardProblem[] = [];
  if (form.name.trim().length < 2) problems.push('name_required');
  const digits = digitsOf(form.number);
  const outcome = testCards[digits];
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) problems.push('invalid_number');
  else if (!outcome) problems.push('not_a_test_card');
  const expiry = expiryProblem(form.expiry, now);
  if (expiry) problems.push(expiry);
  if (!/^\d{3,4}$/.test(form.cvc.trim())) problems.push('invalid_cvc');
  if (problems.length > 0 || !outcome) return { ok: false, problems };
  return {
    ok: true,
    outcome,
    brand: digits.startsWith('4') ? 'visa' : 'card',
    last4: digits.slice(-4),
  };
}
