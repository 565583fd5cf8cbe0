import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash').notNull(),
    language: text('language').notNull().default('es'),
    subscribedNewsletter: boolean('subscribed_newsletter').notNull().default(false),
    // Tracking captured at registration (spec §4 "Tracking parameters"), stored verbatim.
    partnerId: text('partner_id'),
    clientSource: text('client_source'),
    referral: text('referral'),
    promocode: text('promocode'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // E-mail is unique case-insensitively. Registrations are counted by period (partner report).
  (table) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${table.email})`),
    index('users_created_at_idx').on(table.createdAt),
  ],
);

/** spec §3 settings: bot_on, risk (default 1), categories_enabled. */
export const userSettings = pgTable('user_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  botOn: boolean('bot_on').notNull().default(false),
  risk: smallint('risk').notNull().default(1),
  categoriesEnabled: jsonb('categories_enabled')
    .$type<
      Partial<Record<'forex' | 'cripto' | 'stocks' | 'index' | 'commodities' | 'all', boolean>>
    >()
    .notNull(),
  linked: boolean('linked').notNull().default(false),
  loginTradear: boolean('login_tradear').notNull().default(false),
  authorized: boolean('authorized').notNull().default(false),
  updatedAt: updatedAt(),
});

/** Free-month landing form (spec §7 email-subscription): one row per e-mail. */
export const emailSubscriptions = pgTable(
  'email_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    promo: text('promo'),
    language: text('language').notNull().default('es'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('email_subscriptions_email_lower_key').on(sql`lower(${table.email})`),
    index('email_subscriptions_created_at_idx').on(table.createdAt),
  ],
);

/** Opaque bearer tokens, kept only as SHA-256 hashes. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_key').on(table.tokenHash),
    index('sessions_user_id_idx').on(table.userId),
  ],
);

/** Six-digit recovery codes: single use, 15 minutes, five wrong tries. */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('password_reset_codes_user_id_idx').on(table.userId)],
);

/** Promotional codes (spec §1): a benefit, a validity window and a use budget. */
export const promoCodes = pgTable('promo_codes', {
  // Stored upper-case; codes compare case-insensitively.
  code: text('code').primaryKey(),
  benefit: text('benefit').$type<'free_month'>().notNull(),
  validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
  validUntil: timestamp('valid_until', { withTimezone: true }),
  maxUses: integer('max_uses'),
  uses: integer('uses').notNull().default(0),
  createdAt: createdAt(),
});

// The robot in the server (docs/decisions/042-robot-in-the-server.md). Money is integer cents
// (decision 022), prices keep the instrument's digits, and an account id is its user's id.
// Every key makes its insert idempotent: replaying a write after a crash changes nothing.
const cents = (name: string) => bigint(name, { mode: 'number' });
const instant = (name: string) => timestamp(name, { withTimezone: true });
const accountId = () =>
  uuid('account_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** The robot's order intents, written before each order is sent (decision 023). */
export const orderIntents = pgTable(
  'order_intents',
  {
    clientOrderId: text('client_order_id').primaryKey(),
    accountId: accountId(),
    symbol: text('symbol').notNull(),
    category: text('category').notNull(),
    side: text('side').notNull(),
    units: doublePrecision('units').notNull(),
    takeProfit: doublePrecision('take_profit').notNull(),
    stopLoss: doublePrecision('stop_loss').notNull(),
    decidedAt: instant('decided_at').notNull(),
    decisionBid: doublePrecision('decision_bid').notNull(),
    decisionAsk: doublePrecision('decision_ask').notNull(),
    probability: doublePrecision('probability').notNull(),
    breakEvenProbability: doublePrecision('break_even_probability').notNull(),
    estimatedMarginCents: cents('estimated_margin_cents').notNull(),
    equityAtEntryCents: cents('equity_at_entry_cents').notNull(),
    freeMarginAtEntryCents: cents('free_margin_at_entry_cents').notNull(),
    status: text('status').notNull(),
    rejectReason: text('reject_reason'),
  },
  (table) => [
    index('order_intents_pending_idx')
      .on(table.clientOrderId)
      .where(sql`${table.status} = 'pending'`),
    index('order_intents_account_idx').on(table.accountId),
  ],
);

/** The robot's operations (trades): one per filled order, closed once. */
export const operations = pgTable(
  'operations',
  {
    positionId: text('position_id').primaryKey(),
    clientOrderId: text('client_order_id').notNull(),
    accountId: accountId(),
    symbol: text('symbol').notNull(),
    category: text('category').notNull(),
    side: text('side').notNull(),
    units: doublePrecision('units').notNull(),
    openedAt: instant('opened_at').notNull(),
    entryBid: doublePrecision('entry_bid').notNull(),
    entryAsk: doublePrecision('entry_ask').notNull(),
    entryPrice: doublePrecision('entry_price').notNull(),
    pipSize: doublePrecision('pip_size').notNull(),
    takeProfit: doublePrecision('take_profit').notNull(),
    stopLoss: doublePrecision('stop_loss').notNull(),
    probability: doublePrecision('probability').notNull(),
    breakEvenProbability: doublePrecision('break_even_probability').notNull(),
    marginCents: cents('margin_cents').notNull(),
    equityAtEntryCents: cents('equity_at_entry_cents').notNull(),
    freeMarginAtEntryCents: cents('free_margin_at_entry_cents').notNull(),
    usedMarginAfterEntryCents: cents('used_margin_after_entry_cents').notNull(),
    closedAt: instant('closed_at'),
    closePrice: doublePrecision('close_price'),
    /** 'open' until it closes: 'tp', 'sl', 'closeout' or 'kill'. */
    closeReason: text('close_reason').notNull().default('open'),
    profitCents: cents('profit_cents'),
  },
  (table) => [
    uniqueIndex('operations_client_order_id_key').on(table.clientOrderId),
    // The history, newest first, paged by (closed_at, position_id).
    index('operations_account_closed_idx').on(table.accountId, table.closedAt, table.positionId),
    index('operations_open_idx')
      .on(table.accountId)
      .where(sql`${table.closeReason} = 'open'`),
  ],
);

/** The equity each account started a UTC day with: the base of the daily loss limit. */
export const dayStarts = pgTable(
  'day_starts',
  {
    accountId: accountId(),
    /** Days since the epoch, UTC. */
    day: integer('day').notNull(),
    equityCents: cents('equity_cents').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.day] })],
);

/** The built-in trading platform's accounts (the paper broker), in USD cents. */
export const platformAccounts = pgTable('platform_accounts', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  depositsCents: cents('deposits_cents').notNull().default(0),
  realisedProfitCents: cents('realised_profit_cents').notNull().default(0),
  /** Always deposits + realised profit: both change in the transaction that changes it. */
  balanceCents: cents('balance_cents').notNull().default(0),
  openedAt: instant('opened_at').notNull(),
});

export const platformDeposits = pgTable(
  'platform_deposits',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => platformAccounts.accountId, { onDelete: 'cascade' }),
    depositedAt: instant('deposited_at').notNull(),
    cents: cents('cents').notNull(),
    /** The balance once this deposit was in, as the platform reported it. */
    balanceAfterCents: cents('balance_after_cents').notNull(),
  },
  // A replayed deposit has the same account, time and resulting balance: it is not booked twice.
  (table) => [
    primaryKey({ columns: [table.accountId, table.depositedAt, table.balanceAfterCents] }),
  ],
);

/** The platform's orders: the outcome (fill or rejection) and, for a fill, its closure. */
export const platformOrders = pgTable(
  'platform_orders',
  {
    clientOrderId: text('client_order_id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => platformAccounts.accountId, { onDelete: 'cascade' }),
    outcome: text('outcome').$type<'filled' | 'rejected'>().notNull(),
    settledAt: instant('settled_at').notNull(),
    rejectReason: text('reject_reason'),
    positionId: text('position_id'),
    /** The number in the position id (P<number>): the next position continues after the largest. */
    positionNumber: integer('position_number'),
    symbol: text('symbol'),
    side: text('side'),
    units: doublePrecision('units'),
    price: doublePrecision('price'),
    bid: doublePrecision('bid'),
    ask: doublePrecision('ask'),
    takeProfit: doublePrecision('take_profit'),
    stopLoss: doublePrecision('stop_loss'),
    marginCents: cents('margin_cents'),
    closedAt: instant('closed_at'),
    closePrice: doublePrecision('close_price'),
    closeReason: text('close_reason'),
    closeProfitCents: cents('close_profit_cents'),
  },
  (table) => [
    uniqueIndex('platform_orders_position_id_key').on(table.positionId),
    index('platform_orders_open_idx')
      .on(table.accountId)
      .where(sql`${table.outcome} = 'filled' and ${table.closedAt} is null`),
    index('platform_orders_settled_at_idx').on(table.settledAt),
  ],
);

/** The simulated market's last quote per instrument: it restarts from them. */
export const marketQuotes = pgTable('market_quotes', {
  symbol: text('symbol').primaryKey(),
  quotedAt: instant('quoted_at').notNull(),
  bid: doublePrecision('bid').notNull(),
  ask: doublePrecision('ask').notNull(),
});

// Support (docs/decisions/056 and 057): the contact form's messages, the support console's
// admins, their sessions, and the audit log of what they do.

/** The support team: a separate role, signed in with a password and a TOTP code. */
export const admins = pgTable(
  'admins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Base32 TOTP secret (RFC 6238), shown once when the admin is created. */
    totpSecret: text('totp_secret').notNull(),
    /** The last accepted TOTP time step: a code is accepted once. */
    lastTotpStep: bigint('last_totp_step', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('admins_email_lower_key').on(sql`lower(${table.email})`)],
);

/** Admin bearer tokens (SHA-256 hashes), apart from users' sessions. */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    /** Null until the TOTP code is given: until then the session can do nothing. */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
    /** Wrong TOTP codes given on this session; it ends at five. */
    failedCodes: smallint('failed_codes').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('admin_sessions_token_hash_key').on(table.tokenHash),
    index('admin_sessions_admin_id_idx').on(table.adminId),
  ],
);

/** spec §2 Contact: a user's message to support, and when its reply falls due. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'customer_service' | 'suggestion'>().notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** The language the user wrote in: the acknowledgement and the replies use it. */
    language: text('language').$type<'es' | 'pt'>().notNull(),
    status: text('status').$type<'open' | 'answered' | 'closed'>().notNull().default('open'),
    createdAt: createdAt(),
    /** 24 working hours after createdAt, in the operator's time zone (decision 056). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** The first reply. */
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('contact_messages_status_due_idx').on(table.status, table.dueAt),
    index('contact_messages_user_id_idx').on(table.userId),
  ],
);

/** Support's replies to a message, oldest first: the thread. */
export const contactReplies = pgTable(
  'contact_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => contactMessages.id, { onDelete: 'cascade' }),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => admins.id),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('contact_replies_message_id_idx').on(table.messageId, table.createdAt)],
);

/** Every admin action: who, what, when, and the state before and after. Never updated. */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => admins.id),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (table) => [index('admin_audit_log_created_at_idx').on(table.createdAt)],
);
