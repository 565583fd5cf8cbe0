import type { Language } from '@tradebot/contract';

/** The locales our two languages write amounts and dates in. */
const locales: Record<Language, string> = { es: 'es-419', pt: 'pt-BR' };

/** "US$ 29,00": an amount in dollars, as the reader's language writes it (mail, checkout page). */
export function formatAmount(language: Language, cents: number): string {
  return new Intl.NumberFormat(locales[language], { style: 'currency', currency: 'USD' }).format(
    cents / 100,
  );
}

/** "21 de diciembre de 2026": a day, in UTC, as the reader's language writes it. */
export function formatDay(language: Language, at: Date): string {
  return new Intl.DateTimeFormat(locales[language], { dateStyle: 'long', timeZone: 'UTC' }).format(
    at,
  );
}
