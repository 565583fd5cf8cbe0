import { z } from './zod';
import {
  emailSchema,
  newPasswordSchema,
  passwordsComparable,
  passwordsMatch,
  phoneSchema,
} from './accounts';
import { languageSchema } from './common-schemas';
import { dataEnvelope } from './envelope';
import { text } from './text';

/**
 * Account settings (issue 23; docs/decisions/080-account-settings-and-deletion.md): the user's
 * own details, password, phone, sessions and the deletion of the account. Paths live in
 * `accountPaths` (api-paths.ts), under apiV1Prefix.
 */

/** A password the user already has: only present, never checked for strength here. */
const currentPasswordSchema = text({ error: 'validation.required' })
  .min(1, { error: 'validation.required' })
  .max(200, { error: 'validation.max' });

export const accountDetailsSchema = z.object({
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  /** null when none was given. */
  phone: z.string().nullable(),
  language: languageSchema,
});
export type AccountDetails = z.infer<typeof accountDetailsSchema>;
export const accountDetailsResponseSchema = dataEnvelope(accountDetailsSchema);

export const changePasswordRequestSchema = z
  .object({
    current_password: currentPasswordSchema,
    password: newPasswordSchema,
    confirm_password: text({ error: 'validation.required' }),
    language: languageSchema.optional(),
  })
  .superRefine(passwordsMatch, passwordsComparable);
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;
/** `signedOut`: how many other sessions ended. */
export const changePasswordResponseSchema = dataEnvelope(
  z.object({ changed: z.literal(true), signedOut: z.number().int().nonnegative() }),
);

/** An empty phone removes it (the register form's field is optional too). */
export const updatePhoneRequestSchema = z.object({
  phone: phoneSchema,
  language: languageSchema.optional(),
});
export type UpdatePhoneRequest = z.input<typeof updatePhoneRequestSchema>;
export const updatePhoneResponseSchema = dataEnvelope(z.object({ phone: z.string().nullable() }));

/** What a session's User-Agent tells, roughly; null when it says nothing we recognise. */
export const sessionDeviceSchema = z.object({
  browser: z.string().nullable(),
  os: z.string().nullable(),
  mobile: z.boolean(),
});
export type SessionDevice = z.infer<typeof sessionDeviceSchema>;

export const accountSessionSchema = z.object({
  id: z.string(),
  /** ISO 8601. */
  startedAt: z.string(),
  /** ISO 8601; about a minute behind at most (it is not written on every request). */
  lastUsedAt: z.string(),
  expiresAt: z.string(),
  device: sessionDeviceSchema,
  /** The session this request was made with. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
/** Live sessions, the current one first, then the most recently used. */
export const accountSessionsResponseSchema = dataEnvelope(z.array(accountSessionSchema));

export const sessionParamsSchema = z.object({ id: z.uuid() });
export const sessionsSignedOutResponseSchema = dataEnvelope(
  z.object({ signedOut: z.number().int().nonnegative() }),
);

export const deleteAccountRequestSchema = z.object({
  password: currentPasswordSchema,
  language: languageSchema.optional(),
});
export type DeleteAccountRequest = z.input<typeof deleteAccountRequestSchema>;
export const deleteAccountResponseSchema = dataEnvelope(z.object({ deleted: z.literal(true) }));

/**
 * What deletion keeps, and for how long (decision 080): payments and their receipts, for the
 * tax and commercial record-keeping of the countries served (the longest, Argentina's, is ten
 * years). Shown on the settings screen and in the privacy policy.
 */
export const paymentRecordsKeptYears = 10;

/**
 * Changing the e-mail address (decision 089): the new address and the current password. The
 * address changes only when the link mailed to it is opened.
 */
export const changeEmailRequestSchema = z.object({
  email: emailSchema,
  current_password: currentPasswordSchema,
  language: languageSchema.optional(),
});
export type ChangeEmailRequest = z.input<typeof changeEmailRequestSchema>;
/**
 * The same answer whether or not the new address already has an account (decision 085's
 * rule): what differs goes by e-mail. `validHours`: how long the link works.
 */
export const changeEmailResponseSchema = dataEnvelope(
  z.object({ sent: z.literal(true), validHours: z.number().int().positive() }),
);

/** A link's token, from the e-mail: the confirmation's or the old address's "it was not me". */
export const emailLinkRequestSchema = z.object({
  token: text({ error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(200, { error: 'validation.max' }),
  language: languageSchema.optional(),
});
export type EmailLinkRequest = z.input<typeof emailLinkRequestSchema>;
/** The account's address now. */
export const emailConfirmedResponseSchema = dataEnvelope(z.object({ email: z.string() }));
/**
 * `restored`: the old address is the account's again (the change had been confirmed);
 * `signedOut`: every session ended.
 */
export const emailUndoneResponseSchema = dataEnvelope(
  z.object({ restored: z.boolean(), signedOut: z.number().int().nonnegative() }),
);
