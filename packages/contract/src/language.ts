/** spec §9: es is the default and the fallback; pt is the other language. */
export const languages = ['es', 'pt'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'es';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/**
 * Picks the first supported language from an Accept-Language header
 * ("pt-BR,pt;q=0.9,en;q=0.8"), honouring q-values. Returns undefined when none fits.
 */
export function languageFromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { base: tag.trim().toLowerCase().split('-')[0] ?? '', quality, index };
    })
    .filter((entry) => entry.quality > 0 && !Number.isNaN(entry.quality))
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map((entry) => entry.base).find(isLanguage);
}
