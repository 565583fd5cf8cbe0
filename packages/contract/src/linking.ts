import { text } from './text';
import { z } from './zod';
import { limits, newPasswordSchema, passwordsComparable, passwordsMatch } from './accounts';
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
  .superRefine(passwordsMatch, passwordsComparable);
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

/** A cTrader broker, linked through Spotware's OAuth2 (decision 091). */
export const ctraderPlatform = { id: 'ctrader' } as const;
export const ctraderEnvironments = ['demo', 'live'] as const;
export type CTraderEnvironment = (typeof ctraderEnvironments)[number];

/** One trading account the user granted us at cTrader, as the picker shows it. */
export const ctraderAccountSchema = z.object({
  ctidTraderAccountId: z.number().int().positive(),
  live: z.boolean(),
  brokerName: z.string(),
  traderLogin: z.number().int(),
  /** The deposit currency (ISO code as the broker names it); null when the broker did not say. */
  currency: z.string().nullable(),
  /** 100 for 1:100; null when the broker did not say. */
  leverage: z.number().nullable(),
  /** False when this server does not link accounts of that environment (CTRADER_ENVIRONMENT). */
  pickable: z.boolean(),
});
export type CTraderAccount = z.infer<typeof ctraderAccountSchema>;

export const ctraderStatusResponseSchema = dataEnvelope(
  z.object({
    /** False: no application credentials on this server; the choice is shown disabled. */
    configured: z.boolean(),
    environment: z.enum(ctraderEnvironments),
    /** The accounts of the authorisation under way, once cTrader sent the user back; else null. */
    accounts: z.array(ctraderAccountSchema).nullable(),
  }),
);
export type CTraderStatusResponse = z.infer<typeof ctraderStatusResponseSchema>;

export const ctraderAuthorizeRequestSchema = z.object({ language: languageSchema.optional() });
export const ctraderAuthorizeResponseSchema = dataEnvelope(z.object({ authorizeUrl: z.string() }));
export type CTraderAuthorizeResponse = z.infer<typeof ctraderAuthorizeResponseSchema>;

export const ctraderCallbackRequestSchema = z.object({
  code: text({ error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(512, { error: 'validation.max' }),
  state: text({ error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(128, { error: 'validation.max' }),
  language: languageSchema.optional(),
});
export type CTraderCallbackRequest = z.input<typeof ctraderCallbackRequestSchema>;
export const ctraderCallbackResponseSchema = dataEnvelope(
  z.object({ accounts: z.array(ctraderAccountSchema) }),
);
export type CTraderCallbackResponse = z.infer<typeof ctraderCallbackResponseSchema>;

export const ctraderLinkRequestSchema = z.object({
  ctidTraderAccountId: z.number({ error: 'validation.required' }).int().positive(),
  language: languageSchema.optional(),
});
export type CTraderLinkRequest = z.input<typeof ctraderLinkRequestSchema>;
export const ctraderLinkResponseSchema = dataEnvelope(
  z.object({
    linked: z.literal(true),
    login_tradear: z.literal(true),
    platform: z.literal(ctraderPlatform.id),
    account: ctraderAccountSchema,
  }),
);
export type CTraderLinkResponse = z.infer<typeof ctraderLinkResponseSchema>;

/**
 * Ending the link (decision 091), for every platform: confirmed with the Tradebot password;
 * the robot's open operations are closed at the market when `closeOperations`, else left open
 * at the platform or broker for the user.
 */
export const unlinkAccountRequestSchema = z.object({
  password: text({ error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(limits.password.max, { error: 'validation.max' }),
  closeOperations: z.boolean({ error: 'validation.required' }),
  language: languageSchema.optional(),
});
export type UnlinkAccountRequest = z.input<typeof unlinkAccountRequestSchema>;
export const unlinkAccountResponseSchema = dataEnvelope(
  z.object({
    linked: z.literal(false),
    closed: z.number().int().min(0),
    leftOpen: z.number().int().min(0),
  }),
);
export type UnlinkAccountResponse = z.infer<typeof unlinkAccountResponseSchema>;
