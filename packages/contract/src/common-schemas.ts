import { z } from './zod';
import { categories } from './categories';
import { dataEnvelope } from './envelope';
import { languages } from './language';

export const languageSchema = z.enum(languages);
export const categorySchema = z.enum(categories);

export const countryCodeSchema = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .describe('ISO 3166-1 alpha-2 country code, upper case');

/** The payload is "not shown" in the spec: none is needed, and `language` is accepted. */
export const countryCodeRequestSchema = z.object({ language: languageSchema.optional() }).nullish();
export const countryCodeResponseSchema = dataEnvelope(countryCodeSchema);
export type CountryCodeResponse = z.infer<typeof countryCodeResponseSchema>;
