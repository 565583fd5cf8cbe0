import { z } from 'zod';
import { dataEnvelope } from './envelope';
import { languageSchema } from './language';

/** spec §4 Geo and §9: AR is the fallback country, and registration is blocked for UY. */
export const fallbackCountryCode = 'AR';
export const registrationBlockedCountries: readonly string[] = ['UY'];

export const countryCodeSchema = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .describe('ISO 3166-1 alpha-2 country code, upper case');

/** The payload is "not shown" in the spec: none is needed, and `language` is accepted. */
export const countryCodeRequestSchema = z.object({ language: languageSchema.optional() }).nullish();
export const countryCodeResponseSchema = dataEnvelope(countryCodeSchema);
export type CountryCodeResponse = z.infer<typeof countryCodeResponseSchema>;
