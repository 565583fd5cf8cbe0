import { text } from './text';
import { z } from './zod';
import { limits, newPasswordSchema, passwordsMatch } from './accounts';
import { languageSchema } from './common-schemas';
import { dataEnvelope } from './envelope';
import { builtInPlatform } from './platforms';

/**
 * Linking a trading-platform account (spec §2 LinkAccount and TradearLogin, §6): the user
 * registers at the platform with the e-mail of their Tradebot account and a password of their
 * own for the platform, then logs in there. docs/decisions/049-linking-and-the-platform-port.md.
 */
export const tradingPlatformIdSchema = z.enum([builtInPlatform.id], {
  error: 'validation.invalidValue',
});

/** The platform's password follows our password rules (8-72, a letter and a number). */
export const linkAccountRequestSchema = z
  .object({
    platform: tradingPlatformIdSchema.default(builtInPlatform.id),
    password: newPasswordSchema,
    confirm_password: text({ error: 'validation.required' }).max(limits.password.max),
    language: languageSchema.optional(),
  })
  .superRefine(passwordsMatch);
export type LinkAccountRequest = z.input<typeof linkAccountRequestSchema>;

/**
 * What the platform opened: its login e-mail and the account's starting balance (USD). The
 * password just chosen also logs in there (issue 23): `login_tradear` is true at once.
 */
export const linkAccountResponseSchema = dataEnvelope(
  z.object({
    linked: z.literal(true),
    login_tradear: z.literal(true),
    platform: tradingPlatformIdSchema,
    email: z.string(),
    startingBalance: z.number(),
  }),
);
export type LinkAccountResponse = z.infer<typeof linkAccountResponseSchema>;

export const tradingPlatformLoginRequestSchema = z.object({
  platform: tradingPlatformIdSchema.default(builtInPlatform.id),
  password: text({ error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(limits.password.max, { error: 'validation.max' }),
  language: languageSchema.optional(),
});
export type TradingPlatformLoginRequest = z.input<typeof tradingPlatformLoginRequestSchema>;

export const tradingPlatformLoginResponseSchema = dataEnvelope(
  z.object({ linked: z.literal(true), login_tradear: z.literal(true) }),
);
export type TradingPlatformLoginResponse = z.infer<typeof tradingPlatformLoginResponseSchema>;
