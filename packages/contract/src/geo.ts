/** spec §4 Geo and §9: AR is the fallback country, and registration is blocked for UY. */
export const fallbackCountryCode = 'AR';
export const registrationBlockedCountries: readonly string[] = ['UY'];
