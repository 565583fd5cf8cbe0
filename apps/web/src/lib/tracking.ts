import { storage, type StorageKey } from './storage';

/**
 * Tracking parameters (spec §4), read from the query string at startup and kept for the
 * registration form. Decisions in docs/decisions/032:
 * - sourceP: only `p` and `PARTNER_ID`; sourceS: only `s` and `client_source` (exact case);
 * - sourcePromo: `promocode`, in any case;
 * - every other parameter joins sourceReferral as `name=value|` (trailing bar), in the order
 *   given. The reserved names (p, partner_id, s, client_source, promocode) never join it,
 *   whatever their case, so `P=7` or `partner_id=7` is dropped rather than misfiled;
 * - parameters with an empty value are ignored; the first accepted spelling wins;
 * - a key is written only when the URL brings a value for it, so a later visit without
 *   parameters keeps what an earlier one stored.
 */
const partnerSpellings = ['p', 'PARTNER_ID'];
const clientSourceSpellings = ['s', 'client_source'];
const reservedNames = ['p', 'partner_id', 's', 'client_source', 'promocode'];
/**
 * Parameters that carry a credential (the registration link's `confirmation_token`, a signed
 * page's `session`, …) are never kept: they are not tracking, and a token must not sit in
 * storage or reach the account's referral (decision 085; the server's log rule, decision 052).
 */
const credentialName =
  /^(?:[\w.-]*[_-])?(?:session|token|code|key|signature|sig|secret|password|otp|auth)$/i;

export type TrackingValues = Partial<
  Record<Extract<StorageKey, 'sourceP' | 'sourceS' | 'sourcePromo' | 'sourceReferral'>, string>
>;

export function readTrackingParameters(search: string): TrackingValues {
  const values: TrackingValues = {};
  let referral = '';
  for (const [name, value] of new URLSearchParams(search)) {
    if (value === '') continue;
    if (partnerSpellings.includes(name)) {
      values.sourceP ??= value;
    } else if (clientSourceSpellings.includes(name)) {
      values.sourceS ??= value;
    } else if (name.toLowerCase() === 'promocode') {
      values.sourcePromo ??= value;
    } else if (!reservedNames.includes(name.toLowerCase()) && !credentialName.test(name)) {
      referral += `${name}=${value}|`;
    }
  }
  if (referral) values.sourceReferral = referral;
  return values;
}

export function storeTrackingParameters(search: string): TrackingValues {
  const values = readTrackingParameters(search);
  for (const [key, value] of Object.entries(values) as [keyof TrackingValues, string][]) {
    storage.set(key, value);
  }
  return values;
}

/** What the registration form sends (spec §3 Register form). */
export function storedTracking() {
  return {
    partner_id: storage.get('sourceP'),
    client_source: storage.get('sourceS'),
    referral: storage.get('sourceReferral'),
    promocode: storage.get('sourcePromo'),
  };
}
