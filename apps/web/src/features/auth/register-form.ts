import type { Language, PlanId, RegisterRequest } from '@tradebot/contract';

export interface RegisterValues {
  name: string;
  last_name: string;
  email: string;
  phone: string;
  password: string;
  confirm_password: string;
  accept_terms: boolean;
  /** Unticked until the user ticks it (LGPD; decision 087). */
  accept_privacy: boolean;
  subscribe_newsletter: boolean;
  promocode: string;
}

export interface StoredTracking {
  partner_id: string | null;
  client_source: string | null;
  referral: string | null;
}

/**
 * What /register sends (spec §3): the form, with the tracking values stored at startup
 * (sourceP → partner_id, sourceS → client_source, sourceReferral → referral). Empty
 * optional fields are sent as null, not as empty strings.
 */
export type RegisterPayload = Omit<RegisterRequest, 'accept_terms' | 'accept_privacy'> & {
  accept_terms: boolean;
  accept_privacy: boolean;
};

export function registerPayload(
  values: RegisterValues,
  tracking: StoredTracking,
  language: Language,
  /** The plan chosen on the home page (decisions 086, 089). */
  plan: PlanId | null = null,
): RegisterPayload {
  const optional = (value: string | null) => {
    const trimmed = value?.trim() ?? '';
    return trimmed === '' ? null : trimmed;
  };
  return {
    name: values.name,
    last_name: values.last_name,
    email: values.email,
    phone: optional(values.phone),
    password: values.password,
    confirm_password: values.confirm_password,
    accept_terms: values.accept_terms,
    accept_privacy: values.accept_privacy,
    subscribe_newsletter: values.subscribe_newsletter,
    promocode: optional(values.promocode),
    partner_id: optional(tracking.partner_id),
    client_source: optional(tracking.client_source),
    referral: optional(tracking.referral),
    // Kept with the registration, so another browser confirming it knows it (decision 089).
    plan,
    language,
  };
}
