import {
  intlLocaleOf,
  languageLocales,
  type Language,
  type NumberLocale,
} from '@tradebot/contract';

/**
 * "US$ 29,00": an amount in dollars, as the reader writes it: their language alone (mail), or
 * with the country they read from (the checkout page, as the web app does: decision 089).
 */
export function formatAmount(locale: NumberLocale, cents: number): string {
  return new Intl.NumberFormat(intlLocaleOf(locale), { style: 'currency', currency: 'USD' }).format(
    cents / 100,
  );
}

/** "21 de diciembre de 2026": a day, in UTC, as the reader's language writes it. */
export function formatDay(language: Language, at: Date): string {
  return new Intl.DateTimeFormat(languageLocales[language], {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(at);
}
