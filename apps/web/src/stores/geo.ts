import { fallbackCountryCode } from '@tradebot/contract/constants';
import { create } from 'zustand';
import { getCountryCode } from '../lib/get-country-code';

export interface GeoState {
  /** spec §3 Geo: upper-case country code, initially empty. */
  countryCode: string;
  /** Looks the country up once; concurrent callers share the same request. */
  ensureCountryCode: () => Promise<string>;
}

type CountryLookup = () => Promise<{ data?: unknown } | undefined>;

export function createGeoStore(lookup: CountryLookup = getCountryCode) {
  let pending: Promise<string> | undefined;
  return create<GeoState>()((set, get) => ({
    countryCode: '',
    ensureCountryCode() {
      const known = get().countryCode;
      if (known) return Promise.resolve(known);
      pending ??= lookup()
        .then((answer) =>
          typeof answer?.data === 'string' && answer.data.trim() !== ''
            ? answer.data.trim().toUpperCase()
            : fallbackCountryCode,
        )
        // spec §8: a failed lookup falls back to AR, silently.
        .catch(() => fallbackCountryCode)
        .then((code) => {
          set({ countryCode: code });
          pending = undefined;
          return code;
        });
      return pending;
    },
  }));
}

export const useGeoStore = createGeoStore();
