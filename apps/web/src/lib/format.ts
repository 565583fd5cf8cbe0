import {
  intlLocaleOf,
  languageLocales as locales,
  type Language,
  type NumberLocale,
} from '@tradebot/contract';

/**
 * Numbers and times as the user's language writes them (Intl). A language alone uses the
 * Latin American conventions for Spanish and the Brazilian ones for Portuguese; numbers and
 * money take the reader's country too when it is known (`es-AR`, lib/number-locale.ts,
 * decision 089).
 */
export { intlLocaleOf as localeOf };

const cache = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: NumberLocale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlLocaleOf(locale), options);
    cache.set(key, format);
  }
  return format;
}

/**
 * An amount in a currency (ISO 4217; USD unless said), as Intl writes it in the reader's
 * locale: "USD 1,234.50" (es, es-MX), "US$ 1.234,50" (es-AR, pt), "R$ 1.234,50" (pt, BRL). A
 * broker account's amounts are in its own currency (decision 097); `null`, a currency the
 * broker has not said yet, writes the bare number.
 */
export function formatMoney(
  locale: NumberLocale,
  amount: number,
  currency: string | null = 'USD',
): string {
  return numberFormat(locale, moneyOptions(currency)).format(amount);
}

/**
 * A gain or a loss with its sign ("+USD 1.25", "-USD 0.40"), so colour is never the only cue.
 * An amount that rounds to zero has no sign.
 */
export function formatSignedMoney(
  locale: NumberLocale,
  amount: number,
  currency: string | null = 'USD',
): string {
  return numberFormat(locale, { ...moneyOptions(currency), signDisplay: 'exceptZero' }).format(
    amount,
  );
}

function moneyOptions(currency: string | null): Intl.NumberFormatOptions {
  return currency === null
    ? { minimumFractionDigits: 2, maximumFractionDigits: 2 }
    : { style: 'currency', currency };
}

/** A share 0..1 as a percentage, one decimal at most: "12.3%". */
export function formatPercent(locale: NumberLocale, share: number): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/** A share that can be negative (a skill), always with its sign and up to two decimals. */
export function formatSignedPercent(locale: NumberLocale, share: number): string {
  return numberFormat(locale, {
    style: 'percent',
    maximumFractionDigits: 2,
    signDisplay: 'exceptZero',
  }).format(share);
}

/** A price as the instrument quotes it: the digits it came with, at least two. */
export function formatPrice(locale: NumberLocale, price: number): string {
  const decimals = Math.min(8, Math.max(2, decimalsOf(price)));
  return numberFormat(locale, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(price);
}

function decimalsOf(value: number): number {
  const text = String(value);
  if (text.includes('e-')) return Number(text.split('e-')[1]);
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/** A trade size in lots: up to two decimals. */
export function formatLots(locale: NumberLocale, lots: number): string {
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(lots);
}

const dateCache = new Map<string, Intl.DateTimeFormat>();
/** Date and time, short, in the browser's time zone (ISO 8601 in, words out). */
export function formatDateTime(language: Language, iso: string, timeZone?: string): string {
  const key = `${language}|${timeZone ?? ''}`;
  let format = dateCache.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locales[language], {
      dateStyle: 'short',
      timeStyle: 'short',
      // 24-hour time: shorter than "11:40 p.m." and read the same way in both languages.
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    dateCache.set(key, format);
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : format.format(date);
}

/** Which way a figure points, for colouring it: what rounds to zero cents is neutral. */
export function toneOf(amount: number): 'positive' | 'negative' | 'neutral' {
  const cents = Math.round(amount * 100);
  return cents > 0 ? 'positive' : cents < 0 ? 'negative' : 'neutral';
}

const dayCache = new Map<string, Intl.DateTimeFormat>();
/** A day in words ("21 de diciembre de 2026"), as the server sent it (ISO 8601). */
export function formatDay(language: Language, iso: string): string {
  let format = dayCache.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(locales[language], { dateStyle: 'long' });
    dayCache.set(language, format);
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : format.format(date);
}

const monthCache = new Map<string, Intl.DateTimeFormat>();
/**
 * The months two UTC days span, in words: "mayo de 2014", or a range ("abril–mayo de 2014")
 * when they differ. Days as YYYY-MM-DD.
 */
export function formatMonths(language: Language, from: string, to: string): string {
  let format = monthCache.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(locales[language], {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    monthCache.set(language, format);
  }
  const first = new Date(`${from}T00:00:00Z`);
  const last = new Date(`${to}T00:00:00Z`);
  if (Number.isNaN(first.getTime()) || Number.isNaN(last.getTime())) return '—';
  return format.formatRange(first, last);
}

/** Integer cents as money in USD. */
export function formatCents(locale: NumberLocale, cents: number): string {
  return formatMoney(locale, cents / 100);
}

/**
 * How long an operation lasted, in its two largest units ("2 h 5 min", "45 s"), as the
 * language abbreviates them; `null` when either time is unreadable or the end precedes the
 * start.
 */
export function formatDuration(
  locale: NumberLocale,
  fromIso: string,
  toIso: string,
): string | null {
  const milliseconds = new Date(toIso).getTime() - new Date(fromIso).getTime();
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return null;
  const seconds = Math.floor(milliseconds / 1000);
  const parts: [number, 'day' | 'hour' | 'minute' | 'second'][] = [
    [Math.floor(seconds / 86_400), 'day'],
    [Math.floor((seconds % 86_400) / 3600), 'hour'],
    [Math.floor((seconds % 3600) / 60), 'minute'],
    [seconds % 60, 'second'],
  ];
  const first = parts.findIndex(([value]) => value > 0);
  if (first < 0) return numberFormat(locale, { style: 'unit', unit: 'second' }).format(0);
  return parts
    .slice(first, first + 2)
    .filter(([value]) => value > 0)
    .map(([value, unit]) => numberFormat(locale, { style: 'unit', unit }).format(value))
    .join(' ');
}

const ageCache = new Map<Language, Intl.RelativeTimeFormat>();
/**
 * How long ago, short, in the largest whole unit ("hace 12 s", "há 3 min"; "ahora", "agora"
 * under a second). A negative age (clocks apart) is now.
 */
export function formatAgo(language: Language, ageMs: number): string {
  let format = ageCache.get(language);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locales[language], { style: 'short', numeric: 'auto' });
    ageCache.set(language, format);
  }
  const seconds = Math.max(0, Math.floor(ageMs / 1000));
  if (seconds < 60) return format.format(-seconds, 'second');
  if (seconds < 3600) return format.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return format.format(-Math.floor(seconds / 3600), 'hour');
  return format.format(-Math.floor(seconds / 86_400), 'day');
}

const weekdayCache = new Map<string, Intl.DateTimeFormat>();
/** A weekday and a time within the coming week ("lun, 10:30"), in the browser's time zone. */
export function formatWeekdayTime(language: Language, iso: string, timeZone?: string): string {
  const key = `${language}|${timeZone ?? ''}`;
  let format = weekdayCache.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locales[language], {
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    weekdayCache.set(key, format);
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : format.format(date);
}

/** A whole count as the reader's locale groups it ("3.000", "3,000"). */
export function formatCount(locale: NumberLocale, count: number): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(count);
}
