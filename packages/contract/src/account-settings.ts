import { z } from './zod';
import { newPasswordSchema, passwordsMatch, phoneSchema } from './accounts';
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
  .superRefine(passwordsMatch);
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
  /** ISO 8601; at most a few minutes behind (it is not written on every request). */
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
