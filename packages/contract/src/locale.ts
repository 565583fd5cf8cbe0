import type { Language } from './language';

/**
 * The locale numbers and money are written in (decision 089): the reader's language, plus the
 * country they read from when it is known. Argentina, Colombia or Chile write "10.000,00",
 * Mexico and Peru "10,000.00"; Intl knows each country's way, so the locale is `es-<country>`.
 * Portuguese is Brazil's ("10.000,00") wherever it is read. The web app and the server's own
 * pages (the simulated checkout) agree through this module.
 */
export type NumberLocale = Language | `${Language}-${string}`;

/** What a language alone is written as: the Latin American and the Brazilian conventions. */
export const languageLocales: Readonly<Record<Language, string>> = { es: 'es-419', pt: 'pt-BR' };

/** The Spanish-speaking countries the product serves, whose conventions Intl carries. */
const spanishCountries = new Set([
  'AR',
  'BO',
  'CL',
  'CO',
  'CR',
  'CU',
  'DO',
  'EC',
  'GT',
  'HN',
  'MX',
  'NI',
  'PA',
  'PE',
  'PR',
  'PY',
  'SV',
  'UY',
  'VE',
]);

/** The reader's number locale: `es-AR` in Argentina, `es` (es-419) elsewhere, `pt` always. */
export function numberLocaleOf(language: Language, country: string): NumberLocale {
  if (language === 'pt') return 'pt';
  return spanishCountries.has(country) ? `es-${country}` : 'es';
}

/** The BCP 47 tag Intl gets: a language's default, or the language with its country. */
export function intlLocaleOf(locale: NumberLocale): string {
  return locale === 'es' || locale === 'pt' ? languageLocales[locale] : locale;
}
