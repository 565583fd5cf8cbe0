import type { Language } from '@tradebot/contract';
import { localeOf } from '../../lib/format';

/** Minor units of a stated currency (ISO 4217) as money: "US$ 29,00", "R$ 150,00". */
export function formatCurrencyCents(language: Language, cents: number, currency: string): string {
  return new Intl.NumberFormat(localeOf(language), { style: 'currency', currency }).format(
    cents / 100,
  );
}
