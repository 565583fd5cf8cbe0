import { text } from './text';
import { z } from './zod';
import { categoriesEnabledSchema, emailSchema, limits, promoBenefits } from './accounts';
import { languageSchema } from './common-schemas';
import { planIds, subscriptionStatuses } from './plans';
import { dataEnvelope } from './envelope';
import { contactKinds, contactLimits, contactStatuses } from './support';
import {
  accountCurrencySchema,
  robotStatusSchema,
  tradeRowSchema,
  tradingAccountSchema,
} from './trading';

/**
 * The support console (/admin): a separate role that signs in with a password and a TOTP
 * code, and whose every action is audited (docs/decisions/057-admin-console.md).
 */

const isoInstant = z.string().describe('ISO 8601 instant, UTC');

// Sign-in: a password opens a session that can do nothing until its TOTP code is given.
export const adminLoginRequestSchema = z.object({
  email: emailSchema,
  password: text({ error: 'validation.required' }).min(1, { error: 'validation.required' }),
  language: languageSchema.optional(),
});
export type AdminLoginRequest = z.input<typeof adminLoginRequestSchema>;
export const adminLoginResponseSchema = dataEnvelope(
  z.object({ token: z.string(), secondFactor: z.literal('required') }),
);

export const adminSecondFactorRequestSchema = z.object({
  code: text({ error: 'validation.required' })
    .trim()
    .regex(/^\d{6}$/, { error: 'validation.otpFormat' }),
  language: languageSchema.optional(),
});
export type AdminSecondFactorRequest = z.input<typeof adminSecondFactorRequestSchema>;

export const adminProfileSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
});
export type AdminProfile = z.infer<typeof adminProfileSchema>;
export const adminSessionResponseSchema = dataEnvelope(
  z.object({ admin: adminProfileSchema, expiresAt: isoInstant }),
);
export type AdminSession = z.infer<typeof adminSessionResponseSchema>['data'];
export const adminLogoutResponseSchema = dataEnvelope(z.object({ loggedOut: z.literal(true) }));

const pageOffset = z.coerce
  .number({ error: 'validation.invalidValue' })
  .int({ error: 'validation.invalidValue' })
  .min(0, { error: 'validation.invalidValue' })
  .max(1_000_000, { error: 'validation.invalidValue' })
  .default(0);
export const adminPageSize = 50;

const uuidParam = z.uuid({ error: 'validation.invalidValue' });
export const adminIdParamsSchema = z.object({ id: uuidParam });

// Inbox.
export const adminMessageFilters = [...contactStatuses, 'all'] as const;
export type AdminMessageFilter = (typeof adminMessageFilters)[number];
export const adminMessagesQuerySchema = z.object({
  status: z.enum(adminMessageFilters, { error: 'validation.invalidValue' }).default('open'),
  offset: pageOffset,
});

const messageAuthorSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  last_name: z.string(),
});
export const adminMessageSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(contactKinds),
  subject: z.string(),
  status: z.enum(contactStatuses),
  createdAt: isoInstant,
  dueAt: isoInstant,
  answeredAt: isoInstant.nullable(),
  /** Still open after its due time. */
  overdue: z.boolean(),
  replies: z.number().int(),
  user: messageAuthorSchema,
});
export type AdminMessageSummary = z.infer<typeof adminMessageSummarySchema>;
export const adminMessagesResponseSchema = dataEnvelope(
  z.object({
    messages: z.array(adminMessageSummarySchema),
    total: z.number().int(),
    overdue: z.number().int(),
  }),
);
export type AdminMessages = z.infer<typeof adminMessagesResponseSchema>['data'];

export const adminReplySchema = z.object({
  id: z.string(),
  body: z.string(),
  createdAt: isoInstant,
  admin: z.object({ id: z.string(), name: z.string() }),
});
export const adminMessageDetailSchema = adminMessageSummarySchema.extend({
  body: z.string(),
  language: languageSchema,
  thread: z.array(adminReplySchema),
});
export type AdminMessageDetail = z.infer<typeof adminMessageDetailSchema>;
export const adminMessageResponseSchema = dataEnvelope(adminMessageDetailSchema);

export const adminReplyRequestSchema = z.object({
  body: text({ error: 'validation.required', multiline: true })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(contactLimits.reply.max, { error: 'validation.max' }),
  language: languageSchema.optional(),
});
export type AdminReplyRequest = z.input<typeof adminReplyRequestSchema>;

/** A message is closed without a reply (a suggestion noted), or opened again. */
export const adminMessageStatusRequestSchema = z.object({
  status: z.enum(['open', 'closed'], { error: 'validation.invalidValue' }),
  language: languageSchema.optional(),
});

// Users.
export const adminUserSearchQuerySchema = z.object({
  q: text({ error: 'validation.required' })
    .trim()
    .min(2, { error: 'validation.min' })
    .max(limits.email.max, { error: 'validation.max' }),
});
export const adminUserSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  last_name: z.string(),
  createdAt: isoInstant,
  authorized: z.boolean(),
  linked: z.boolean(),
  bot_on: z.boolean(),
});
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>;
export const adminUserSearchResponseSchema = dataEnvelope(
  z.object({ users: z.array(adminUserSummarySchema), more: z.boolean() }),
);

export const adminSubscriptionSchema = z.object({
  plan: z.enum(planIds).nullable(),
  status: z.enum(subscriptionStatuses),
  freeMonth: z.boolean(),
  accessUntil: isoInstant.nullable(),
  endedAt: isoInstant.nullable(),
});
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;

/** Why the 30-day guarantee (decision 048) cannot be honoured for a user now. */
export const guaranteeRefusals = ['no_payment', 'expired', 'refunded'] as const;
export type GuaranteeRefusal = (typeof guaranteeRefusals)[number];
export const adminGuaranteeSchema = z.object({
  eligible: z.boolean(),
  /** When the guarantee ends (or ended); null without a payment. */
  until: isoInstant.nullable(),
  reason: z.enum(guaranteeRefusals).nullable(),
});
export type AdminGuarantee = z.infer<typeof adminGuaranteeSchema>;

export const adminUserDetailSchema = z.object({
  user: adminUserSummarySchema.extend({
    phone: z.string().nullable(),
    language: z.string(),
    subscribed_newsletter: z.boolean(),
    partner_id: z.string().nullable(),
    client_source: z.string().nullable(),
    referral: z.string().nullable(),
    promocode: z.string().nullable(),
  }),
  settings: z.object({
    login_tradear: z.boolean(),
    risk: z.number().int(),
    categories_enabled: categoriesEnabledSchema,
  }),
  /** The user's current subscription (decision 047), null when they never had one. */
  subscription: adminSubscriptionSchema.nullable(),
  firstPayment: z
    .object({
      amountCents: z.number().int(),
      currency: z.string(),
      paidAt: isoInstant,
      refundedAt: isoInstant.nullable(),
    })
    .nullable(),
  guarantee: adminGuaranteeSchema,
  robot: robotStatusSchema,
  account: tradingAccountSchema.nullable(),
  /** The currency of `account`'s amounts (decision 097), as get-all-data's `accountCurrency`. */
  accountCurrency: accountCurrencySchema,
  openOperations: z.array(tradeRowSchema),
  recentClosed: z.array(tradeRowSchema),
  messages: z.array(adminMessageSummarySchema.omit({ user: true })),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;
export const adminUserResponseSchema = dataEnvelope(adminUserDetailSchema);

/** A user refunded under the 30-day guarantee: the user as the console now sees them. */
export const adminGuaranteeRefundResponseSchema = dataEnvelope(adminUserDetailSchema);

export const adminKillResponseSchema = dataEnvelope(
  z.object({ bot_on: z.literal(false), closed: z.number().int() }),
);

// Promo codes.
export const promoCodeStates = ['active', 'scheduled', 'ended', 'exhausted'] as const;
export type PromoCodeState = (typeof promoCodeStates)[number];
export const adminPromoCodeSchema = z.object({
  code: z.string(),
  benefit: z.enum(promoBenefits),
  validFrom: isoInstant,
  validUntil: isoInstant.nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
  createdAt: isoInstant,
  state: z.enum(promoCodeStates),
});
export type AdminPromoCode = z.infer<typeof adminPromoCodeSchema>;
export const adminPromoCodesResponseSchema = dataEnvelope(
  z.object({ promoCodes: z.array(adminPromoCodeSchema) }),
);
export const adminPromoCodeResponseSchema = dataEnvelope(adminPromoCodeSchema);

export const promoCodePattern = /^[A-Za-z0-9_-]+$/;
export const adminCreatePromoCodeRequestSchema = z
  .object({
    code: text({ error: 'validation.required' })
      .trim()
      .min(1, { error: 'validation.required' })
      .min(3, { error: 'validation.min' })
      .max(limits.promocode.max, { error: 'validation.max' })
      .regex(promoCodePattern, { error: 'admin.promoCodeCharacters' }),
    benefit: z.enum(promoBenefits, { error: 'validation.invalidValue' }),
    validFrom: z.iso.datetime({ offset: true, error: 'validation.invalidValue' }),
    validUntil: z.iso.datetime({ offset: true, error: 'validation.invalidValue' }).nullable(),
    maxUses: z
      .number({ error: 'validation.invalidValue' })
      .int({ error: 'validation.invalidValue' })
      .min(1, { error: 'validation.invalidValue' })
      .max(10_000_000, { error: 'validation.invalidValue' })
      .nullable(),
    language: languageSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.validUntil !== null && Date.parse(value.validUntil) <= Date.parse(value.validFrom)) {
      ctx.addIssue({ code: 'custom', path: ['validUntil'], message: 'admin.validUntilAfterFrom' });
    }
  });
export type AdminCreatePromoCodeRequest = z.input<typeof adminCreatePromoCodeRequestSchema>;

export const adminPromoCodeParamsSchema = z.object({
  code: text()
    .trim()
    .min(1, { error: 'validation.invalidValue' })
    .max(limits.promocode.max, { error: 'validation.invalidValue' })
    .regex(promoCodePattern, { error: 'validation.invalidValue' }),
});
/** How an account came to use a code. `before_history`: carried before uses were recorded. */
export const promoCodeUseSources = ['registration', 'profile', 'before_history'] as const;
export const adminPromoCodeUseSchema = z.object({
  id: z.string(),
  usedAt: isoInstant,
  benefit: z.enum(promoBenefits),
  source: z.enum(promoCodeUseSources),
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), last_name: z.string() }),
  /** Whether the account still carries this code (it may have applied another since). */
  current: z.boolean(),
});
export type AdminPromoCodeUse = z.infer<typeof adminPromoCodeUseSchema>;
export const adminPromoCodeUsesResponseSchema = dataEnvelope(
  z.object({
    uses: z.number().int(),
    /** Every recorded use, newest first (at most the newest 200). */
    history: z.array(adminPromoCodeUseSchema),
  }),
);

// Partners and referrals.
export const partnerReportDimensions = [
  'partner_id',
  'client_source',
  'promocode',
  'referral',
] as const;
export type PartnerReportDimension = (typeof partnerReportDimensions)[number];
const calendarDate = text({ error: 'validation.required' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.invalidValue' })
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), {
    error: 'validation.invalidValue',
  });
export const partnerReportQuerySchema = z
  .object({
    from: calendarDate,
    to: calendarDate,
    dimension: z.enum(partnerReportDimensions, { error: 'validation.invalidValue' }),
  })
  .superRefine((value, ctx) => {
    if (value.to < value.from) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'admin.periodReversed' });
    }
  });
export type PartnerReportQuery = z.input<typeof partnerReportQuerySchema>;
/** Money of one currency, in its minor units: what was paid, refunded, and the difference. */
export const partnerRevenueSchema = z.object({
  currency: z.string(),
  grossCents: z.number().int(),
  refundedCents: z.number().int(),
  netCents: z.number().int(),
});
export type PartnerRevenue = z.infer<typeof partnerRevenueSchema>;
export const partnerReportRowSchema = z.object({
  /** The parameter's value; null for accounts that carried none. */
  key: z.string().nullable(),
  /** Accounts registered in the period. */
  registrations: z.number().int(),
  /** Payments made in the period by accounts with this key, whenever they registered. */
  payments: z.number().int(),
  /** Refunds made in the period (of payments of any date). */
  refunds: z.number().int(),
  /** One entry per currency in `currencies`, in that order. */
  revenue: z.array(partnerRevenueSchema),
});
export type PartnerReportRow = z.infer<typeof partnerReportRowSchema>;
export const partnerReportSchema = z.object({
  dimension: z.enum(partnerReportDimensions),
  from: z.string(),
  to: z.string(),
  /** The operator's time zone: days start and end at its midnight. */
  timeZone: z.string(),
  /** Currencies of the period's payments and refunds, upper case, sorted. */
  currencies: z.array(z.string()),
  rows: z.array(partnerReportRowSchema),
  /** Accounts registered in the period (a registration with two referral pairs counts once). */
  registrations: z.number().int(),
  payments: z.number().int(),
  refunds: z.number().int(),
  revenue: z.array(partnerRevenueSchema),
});
export type PartnerReport = z.infer<typeof partnerReportSchema>;
export const partnerReportResponseSchema = dataEnvelope(partnerReportSchema);

// Audit log.
export const adminAuditActions = [
  'admin.signed_in',
  'admin.signed_out',
  'admin.sign_in_failed',
  'message.replied',
  'message.status_changed',
  'robot.killed',
  'guarantee.refund_requested',
  'guarantee.refunded',
  'promo_code.created',
  'promo_code.retired',
  'report.exported',
  // Reads of a user's personal data (issue 37, point 12; decision 117).
  'user.viewed',
  'message.viewed',
  // The user downloaded their own data, with no admin (decision 153).
  'user.data_exported',
] as const;
export type AdminAuditAction = (typeof adminAuditActions)[number];
/** Why a console sign-in failed (`admin.sign_in_failed`, decision 079). */
export const adminSignInFailures = [
  'unknown_email',
  'wrong_password',
  'wrong_code',
  'rate_limited',
] as const;
export type AdminSignInFailure = (typeof adminSignInFailures)[number];
export const adminAuditQuerySchema = z.object({ offset: pageOffset });
const auditState = z.record(z.string(), z.unknown()).nullable();
export const adminAuditEntrySchema = z.object({
  id: z.string(),
  at: isoInstant,
  /** Null for a failed sign-in with an e-mail that is no admin's. */
  admin: adminProfileSchema.nullable(),
  action: z.enum(adminAuditActions),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: auditState,
  after: auditState,
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;
export const adminAuditResponseSchema = dataEnvelope(
  z.object({ entries: z.array(adminAuditEntrySchema), total: z.number().int() }),
);

// System (decision 160): the processes running the robot, for support staff.
/** Embedded: one process runs the robot for every account. Scaled: processes share them by lease. */
export const robotModes = ['embedded', 'scaled'] as const;
export type RobotMode = (typeof robotModes)[number];
export const systemErrorSchema = z.object({
  at: isoInstant,
  /** The log line's message: a fixed text, never a user's data. */
  message: z.string(),
});
export const systemProcessSchema = z.object({
  /** The process's name (host:pid:random), as the robot status and the log lines name it. */
  process: z.string(),
  /** The process answering this request. */
  self: z.boolean(),
  /** Accounts whose robot this process runs now. */
  accounts: z.number().int().min(0),
  /** How late the last market tick ran, ms; null before the first report (or no timed market). */
  tickLagMs: z.number().min(0).nullable(),
  /** Leases this process claimed, lost and released in the last hour (scaled mode). */
  leaseMoves: z.object({
    claimed: z.number().int().min(0),
    lost: z.number().int().min(0),
    released: z.number().int().min(0),
  }),
  /** When the figures were taken; null when the process has not reported yet. */
  reportedAt: isoInstant.nullable(),
  /** Its last errors, newest first (at most 5). */
  errors: z.array(systemErrorSchema),
});
export type SystemProcess = z.infer<typeof systemProcessSchema>;
export const adminSystemSchema = z.object({
  mode: z.enum(robotModes),
  checkedAt: isoInstant,
  processes: z.array(systemProcessSchema),
  /** Accounts no live process holds now (scaled mode; 0 when embedded). */
  unheldAccounts: z.number().int().min(0),
});
export type AdminSystem = z.infer<typeof adminSystemSchema>;
export const adminSystemResponseSchema = dataEnvelope(adminSystemSchema);
