import { z } from './zod';
import { categories } from './categories';
import { dataEnvelope } from './envelope';
import { languageSchema } from './common-schemas';
import { planIds } from './plans';
import { text } from './text';

/**
 * Account schemas (spec §3, §5, §7). Messages are catalogue keys (messages.ts), rendered
 * in the user's language by the server and by the web forms alike.
 * Length bounds are ours (spec: "not shown"); see docs/decisions/005-accounts.md.
 */
export const limits = {
  name: { min: 2, max: 50 },
  password: { min: 8, max: 72 },
  email: { max: 254 },
  phone: { min: 6, max: 20 },
  promocode: { max: 32 },
  tracking: { max: 200 },
  referral: { max: 2000 },
} as const;

// Latin letters, with the accents of Spanish and Portuguese, spaces, apostrophes and hyphens.
const latinName = /^[A-Za-zÀ-ÖØ-öø-ÿ]+(?:[ '’-][A-Za-zÀ-ÖØ-öø-ÿ]+)*$/;

export const emailSchema = text({ error: 'validation.emailRequired' })
  .trim()
  .min(1, { error: 'validation.emailRequired' })
  .max(limits.email.max, { error: 'validation.max' })
  .pipe(z.email({ error: 'validation.email' }));

export const nameSchema = text({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .min(limits.name.min, { error: 'validation.min' })
  .max(limits.name.max, { error: 'validation.max' })
  .regex(latinName, { error: 'validation.latinLetters' });

export const newPasswordSchema = text({ error: 'validation.required' })
  .min(1, { error: 'validation.required' })
  .min(limits.password.min, { error: 'validation.min' })
  .max(limits.password.max, { error: 'validation.max' })
  .regex(/\p{L}/u, { error: 'validation.passwordLetterAndNumber' })
  .regex(/\p{N}/u, { error: 'validation.passwordLetterAndNumber' });

const digitCount = (value: string) => value.replace(/\D/g, '').length;

/** Optional: an empty string means no phone. */
export const phoneSchema = text()
  .trim()
  .regex(/^\+?[0-9 ()-]*$/, { error: 'validation.numbersOnly', abort: true })
  .refine((value) => value === '' || digitCount(value) >= limits.phone.min, {
    error: 'validation.min',
    params: { minimum: limits.phone.min },
  })
  .refine((value) => digitCount(value) <= limits.phone.max, {
    error: 'validation.max',
    params: { maximum: limits.phone.max },
  });

export const promocodeSchema = text()
  .trim()
  .max(limits.promocode.max, { error: 'validation.promocodeInvalid' });

const optionalText = (max: number) => text().trim().max(max).nullish();

export function passwordsMatch<T extends { password: string; confirm_password: string }>(
  value: T,
  ctx: z.core.$RefinementCtx<T>,
) {
  if (value.password !== value.confirm_password) {
    ctx.addIssue({
      code: 'custom',
      path: ['confirm_password'],
      message: 'validation.passwordsMatch',
    });
  }
}

/**
 * When `passwordsMatch` runs: as soon as both passwords are text, even while other fields
 * fail (zod skips an object's refinements after any field's issue by default), so the form
 * says the passwords differ together with its other errors (issue 39).
 */
export const passwordsComparable: z.core.$ZodSuperRefineParams = {
  when: ({ value }) => {
    if (typeof value !== 'object' || value === null) return false;
    const { password, confirm_password } = value as Record<string, unknown>;
    return typeof password === 'string' && typeof confirm_password === 'string';
  },
};

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: text({ error: 'validation.required' }).min(1, { error: 'validation.required' }),
  rememberMe: z.boolean().default(false),
  language: languageSchema.optional(),
  /**
   * The one-time link mailed with a sign-in alert (decision 130): with the right password it
   * passes the account's sign-in limits, once, from any address.
   */
  signInToken: text().min(1).max(200).optional(),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;
export const tokenResponseSchema = dataEnvelope(z.object({ token: z.string() }));
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/**
 * The privacy policy a registration consents to, by the date of its last change: recorded with
 * the consent (decision 087). Change it with the policy's text (web locales, legal.json).
 */
export const privacyPolicyVersion = '2026-11-29';

export const registerRequestSchema = z
  .object({
    name: nameSchema,
    last_name: nameSchema,
    email: emailSchema,
    phone: phoneSchema.nullish(),
    password: newPasswordSchema,
    confirm_password: text({ error: 'validation.required' }),
    // spec §3: pre-ticked in the form. Privacy consent and the newsletter are asked for apart,
    // unticked, in both languages (LGPD art. 8; decision 087).
    accept_terms: z.literal(true, { error: 'validation.acceptTerms' }),
    accept_privacy: z.literal(true, { error: 'validation.acceptPrivacy' }),
    subscribe_newsletter: z.boolean().default(false),
    promocode: promocodeSchema.nullish(),
    partner_id: optionalText(limits.tracking.max),
    client_source: optionalText(limits.tracking.max),
    // Stored verbatim (spec §4 tracking), so not trimmed.
    referral: text().max(limits.referral.max).nullish(),
    // The plan chosen on the home page, kept with the registration so that confirming in
    // another browser still marks it at payment (decisions 086, 089).
    plan: z.enum(planIds).nullish(),
    language: languageSchema.optional(),
  })
  .superRefine(passwordsMatch, passwordsComparable);
export type RegisterRequest = z.input<typeof registerRequestSchema>;

/**
 * What `register` answers (decision 085): the same whether or not the address has an account;
 * the rest goes by e-mail. The nonce stays in this browser, which then confirms with one click.
 */
export const registerResponseSchema = dataEnvelope(
  z.object({ sent: z.literal(true), nonce: z.string() }),
);
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** The link's token, and this browser's nonce or, from another browser, the password chosen. */
export const confirmRegistrationRequestSchema = z.object({
  token: text({ error: 'validation.required' }).min(20).max(200),
  nonce: text().max(200).nullish(),
  password: text().max(limits.password.max).nullish(),
  language: languageSchema.optional(),
});
export type ConfirmRegistrationRequest = z.input<typeof confirmRegistrationRequestSchema>;
/** The new account's session, and what became of a promo code given at registration. */
export const confirmRegistrationResponseSchema = dataEnvelope(
  z.object({
    token: z.string(),
    promocode: z.enum(['applied', 'expired']).nullable(),
    /** The plan chosen before registering, if any (decision 089). */
    plan: z.enum(planIds).nullable(),
  }),
);
export type ConfirmRegistrationResponse = z.infer<typeof confirmRegistrationResponseSchema>;

/** spec §3 User config, exactly. */
export const categoriesEnabledSchema = z.object({
  ...Object.fromEntries(categories.map((category) => [category, z.boolean()])),
  all: z.boolean(),
} as Record<(typeof categories)[number] | 'all', z.ZodBoolean>);

export const userConfigSchema = z.object({
  user: z.object({
    id: z.string(),
    name: z.string(),
    last_name: z.string(),
    email: z.string(),
    subscribed_newsletter: z.boolean(),
  }),
  settings: z.object({
    bot_on: z.boolean(),
    risk: z.number().int(),
    categories_enabled: categoriesEnabledSchema,
  }),
  linked: z.boolean(),
  login_tradear: z.boolean(),
  authorized: z.boolean(),
});
export type UserConfig = z.infer<typeof userConfigSchema>;
export const userConfigResponseSchema = dataEnvelope(userConfigSchema);

export const newsletterResponseSchema = dataEnvelope(
  z.object({ subscribed_newsletter: z.boolean() }),
);

export const forgotPasswordRequestSchema = z.object({
  language: languageSchema.optional(),
  email: emailSchema,
});
/** Identical whether or not the e-mail has an account. */
export const forgotPasswordResponseSchema = dataEnvelope(z.object({ sent: z.literal(true) }));

/**
 * spec §3 lists otp, password, confirm_password; we add the e-mail the code was sent to,
 * so that a code's five wrong tries can be counted (docs/decisions/005-accounts.md).
 */
export const setPasswordRequestSchema = z
  .object({
    email: emailSchema,
    // spec §5: a letter is "numbers only" (issue 22), a wrong length "6 digits".
    otp: text({ error: 'validation.required' })
      .trim()
      .regex(/^\d*$/, { error: 'validation.numbersOnly' })
      // Only digits, of the wrong count: one message per mistake.
      .regex(/^(?:\d{6}|.*\D.*)$/, { error: 'validation.otpFormat' }),
    password: newPasswordSchema,
    confirm_password: text({ error: 'validation.required' }),
    language: languageSchema.optional(),
  })
  .superRefine(passwordsMatch, passwordsComparable);
export type SetPasswordRequest = z.input<typeof setPasswordRequestSchema>;
export const setPasswordResponseSchema = dataEnvelope(z.object({ changed: z.literal(true) }));

export const promoBenefits = ['free_month'] as const;
export const validatePromocodeRequestSchema = z.object({
  promocode: text({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }),
  language: languageSchema.optional(),
});
export const validatePromocodeResponseSchema = dataEnvelope(
  z.object({ valid: z.boolean(), benefit: z.enum(promoBenefits).nullable() }),
);
export type ValidatePromocodeResponse = z.infer<typeof validatePromocodeResponseSchema>;

export const updatePromocodeRequestSchema = z.object({
  promocode: promocodeSchema.min(1, { error: 'validation.required' }),
  language: languageSchema.optional(),
});
/** A free-month code starts the trial at once: `trialEndsAt` says until when (issue 10). */
export const updatePromocodeResponseSchema = dataEnvelope(
  z.object({
    promocode: z.string(),
    benefit: z.enum(promoBenefits),
    trialEndsAt: z.string().nullable(),
  }),
);

export const logoutResponseSchema = dataEnvelope(z.object({ loggedOut: z.literal(true) }));

/** Free-month landing (spec §7): stored once per e-mail. 201 the first time, 200 after. */
export const emailSubscriptionRequestSchema = z.object({
  email: emailSchema,
  promo: text().trim().max(limits.promocode.max).nullish(),
  language: languageSchema.optional(),
});
// The same answer for a new and a known address: it tells nobody who is subscribed (issue 18).
export const emailSubscriptionResponseSchema = dataEnvelope(
  z.object({ status: z.enum(['subscribed']) }),
);
export type EmailSubscriptionResponse = z.infer<typeof emailSubscriptionResponseSchema>;
