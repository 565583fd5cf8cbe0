import type { Language } from '@tradebot/contract';

/**
 * The contract's languages (spec §9), mirrored here because the contract's language module
 * also builds a zod schema, and importing it would put zod in the entry chunk
 * (docs/decisions/033). languages.test.ts fails if the two ever differ.
 */
export const languages = ['es', 'pt'] as const satisfies readonly Language[];
export const defaultLanguage: Language = 'es';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}
