import { sql } from 'drizzle-orm';
import type { BrokerBacktest } from '@tradebot/contract';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSequence,
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
    /**
     * Set when the user deleted their account: the row stays, anonymised, for the payments
     * kept by law (decision 080).
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
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
    /** When the free-month code was last e-mailed: a repeat within a day mails nothing. */
    codeMailedAt: timestamp('code_mailed_at', { withTimezone: true }),
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
    /** Written at most every few minutes (decision 080); null until the first refresh. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** The browser's User-Agent at sign-in, cut to 256 characters: the device in the list. */
    userAgent: text('user_agent'),
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

/**
 * One-time sign-in links mailed with a sign-in alert (decision 130): a login that carries one
 * passes the account's sign-in limits, still with the password. Only the token's hash is kept.
 */
export const signInLinks = pgTable(
  'sign_in_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('sign_in_links_token_hash_key').on(table.tokenHash),
    index('sign_in_links_user_id_idx').on(table.userId),
  ],
);

/** What a registration asked for, kept until its e-mail is confirmed (decision 085). */
export interface PendingRegistration {
  name: string;
  lastName: string;
  email: string;
  phone: string | null;
  passwordHash: string;
  language: 'es' | 'pt';
  partnerId: string | null;
  clientSource: string | null;
  referral: string | null;
  promocode: string | null;
  /**
   * What the form agreed to, and when (decision 087). Missing from registrations stored before
   * it: those cannot become accounts (no consent on record); the user registers again.
   */
  consent?: RegistrationConsent;
  /** The plan chosen on the home page (decision 089); missing from older registrations. */
  plan?: 'monthly' | 'yearly' | null;
}

/** The consent given on the register form, carried to the account at confirmation. */
export interface RegistrationConsent {
  /** When the form was sent (ISO 8601): the moment the boxes were ticked. */
  givenAt: string;
  /** The privacy policy's version (its date) shown next to the boxes. */
  privacyPolicyVersion: string;
  language: 'es' | 'pt';
  terms: true;
  privacy: true;
  marketing: boolean;
}

/**
 * Registrations waiting for their e-mail's owner (issue 18, finding 9; decision 085): no
 * account exists until the link mailed to the address is opened, so `register` answers the
 * same whether or not the address already has one. Single use; a day to confirm.
 */
export const registrationConfirmations = pgTable(
  'registration_confirmations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    /** The browser that registered holds the nonce: it confirms with one click (decision 085). */
    nonceHash: text('nonce_hash').notNull(),
    /** Lower-cased: a new registration for an address replaces the one waiting. */
    email: text('email').notNull(),
    registration: jsonb('registration').$type<PendingRegistration>().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('registration_confirmations_token_hash_key').on(table.tokenHash),
    index('registration_confirmations_email_idx').on(table.email),
    index('registration_confirmations_expires_at_idx').on(table.expiresAt),
  ],
);

/**
 * E-mail address changes asked for in account settings (decision 089). The address changes
 * only when the link mailed to the new one is used (once, within a day); the old address gets
 * a "it was not me" link that, for a week, cancels the change or puts the old address back and
 * ends every session. Rows are kept for that week, then dropped when another change is asked.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    oldEmail: text('old_email').notNull(),
    newEmail: text('new_email').notNull(),
    /** The link mailed to the new address (peppered SHA-256, as session tokens). */
    tokenHash: text('token_hash').notNull(),
    /** The "it was not me" link mailed to the old address. */
    undoTokenHash: text('undo_token_hash').notNull(),
    /** The session that asked: it stays signed in when the change is confirmed. */
    sessionId: uuid('session_id'),
    /**
     * False when the new address already had an account: nothing was mailed to it, so the
     * link cannot exist; the row is kept so the old address's mail and link look the same.
     */
    mailed: boolean('mailed').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    undoExpiresAt: timestamp('undo_expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('email_changes_token_hash_key').on(table.tokenHash),
    uniqueIndex('email_changes_undo_token_hash_key').on(table.undoTokenHash),
    index('email_changes_user_id_idx').on(table.userId),
  ],
);

/** What a consent was about (decision 087). */
export const consentPurposes = ['terms', 'privacy', 'marketing'] as const;
export type ConsentPurpose = (typeof consentPurposes)[number];

/**
 * The consents each account gave or refused, as evidence (LGPD art. 8 §2: the controller must
 * prove consent; decision 087): one row per purpose and decision, never updated. The
 * registration writes them, and so does the newsletter toggle (decision 089).
 */
export const userConsents = pgTable(
  'user_consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<ConsentPurpose>().notNull(),
    granted: boolean('granted').notNull(),
    /** The privacy policy's version (its date) the user was shown. */
    policyVersion: text('policy_version').notNull(),
    /** The language the policy and the form were read in. */
    language: text('language').notNull(),
    /** Where it was given: 'registration', or 'settings' (the newsletter toggle, decision 089). */
    source: text('source').notNull(),
    /** When the user gave it (the form was sent), not when the account was created. */
    givenAt: timestamp('given_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('user_consents_user_id_idx').on(table.userId)],
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

/**
 * Every use of a promotional code (decision 059): who, when, which benefit, written in the
 * redeeming transaction. Kept when the account later applies another code.
 */
export const promoCodeUses = pgTable(
  'promo_code_uses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code')
      .notNull()
      .references(() => promoCodes.code),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    benefit: text('benefit').$type<'free_month'>().notNull(),
    /** registration | profile | before_history (carried before uses were recorded). */
    source: text('source').$type<'registration' | 'profile' | 'before_history'>().notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('promo_code_uses_code_idx').on(table.code, table.usedAt),
    index('promo_code_uses_user_idx').on(table.userId),
  ],
);

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
    /** A real broker's own error code for a rejection (MARKET_CLOSED, SYMBOL_HAS_HOLIDAY...). */
    rejectBrokerCode: text('reject_broker_code'),
  },
  (table) => [
    index('order_intents_pending_idx')
      .on(table.clientOrderId)
      .where(sql`${table.status} = 'pending'`),
    index('order_intents_account_idx').on(table.accountId),
    // The account's refused orders, newest first (decision 101).
    index('order_intents_rejected_idx')
      .on(table.accountId, table.decidedAt, table.clientOrderId)
      .where(sql`${table.status} = 'rejected'`),
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
    /** 'open' until it closes: 'tp', 'sl', 'closeout', 'kill' or 'manual' (decision 152). */
    closeReason: text('close_reason').notNull().default('open'),
    profitCents: cents('profit_cents'),
    /**
     * The currency of its amounts (ISO 4217), as the account said it when the order filled: USD
     * on the built-in platform, the broker account's own otherwise. Null: not known (an operation
     * stored before migration 0023 whose link has gone, decision 103).
     */
    currency: text('currency'),
  },
  (table) => [
    uniqueIndex('operations_client_order_id_key').on(table.clientOrderId),
    // The history, newest first, paged by (closed_at, position_id).
    index('operations_account_closed_idx').on(table.accountId, table.closedAt, table.positionId),
    // Every operation, newest opened first, paged by (opened_at, position_id): the track record.
    index('operations_account_opened_idx').on(table.accountId, table.openedAt, table.positionId),
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
    /** The first deposit, made with the opening (decision 110). */
    opening: boolean('opening').notNull().default(false),
  },
  (table) => [
    // A replayed deposit has the same account, time and resulting balance: it is not booked twice.
    primaryKey({ columns: [table.accountId, table.depositedAt, table.balanceAfterCents] }),
    // One opening deposit per account, whichever processes opened it and when (decision 110).
    uniqueIndex('platform_deposits_one_opening_key')
      .on(table.accountId)
      .where(sql`${table.opening}`),
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
    /**
     * The number in the position id (P<number>): the next position continues after the largest.
     * With account leases each run of a robot takes its own block of numbers (decision 092).
     */
    positionNumber: bigint('position_number', { mode: 'number' }),
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

// Linking (docs/decisions/049-linking-and-the-platform-port.md).

/**
 * The built-in trading platform's own logins: the platform keeps its password as a platform
 * would (an argon2 hash). The platform account id is the Tradebot user's id (decision 042).
 * A login whose account is not in `platform_accounts` yet is an opening still to do: the
 * process running the robot opens it with `starting_balance_cents`.
 */
export const platformUsers = pgTable(
  'platform_users',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    startingBalanceCents: cents('starting_balance_cents').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('platform_users_email_lower_key').on(sql`lower(${table.email})`)],
);

/**
 * Our side of a user's link to a trading platform. The platform credentials are kept only
 * encrypted (AES-256-GCM), with the id of the key that encrypted them, so that a rotation
 * finds what still uses an older key.
 */
export const tradingPlatformLinks = pgTable(
  'trading_platform_links',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    platformAccountId: text('platform_account_id').notNull(),
    credentialsCiphertext: text('credentials_ciphertext'),
    credentialsKeyId: text('credentials_key_id'),
    linkedAt: instant('linked_at').notNull(),
    loggedInAt: instant('logged_in_at'),
    /**
     * A broker linked through OAuth2 (cTrader, decision 091): when the access token sealed in
     * `credentials_ciphertext` expires; the refresh job renews it before. Null for the built-in
     * platform, whose credentials are a password.
     */
    tokenExpiresAt: instant('token_expires_at'),
    /** What the broker said of the account when it was picked (broker, currency, leverage). */
    brokerAccount: jsonb('broker_account').$type<LinkedBrokerAccount>(),
    /**
     * The broker account's symbols the robot does not trade, as its run last read them (decision
     * 101); null until a run has read them.
     */
    untradableSymbols: jsonb('untradable_symbols').$type<UntradableSymbols>(),
    /**
     * The robot on this broker account's own recorded prices (decision 144): the last run's state,
     * progress and result; null until one starts. Goes with the link when it is deleted.
     */
    brokerBacktest: jsonb('broker_backtest').$type<StoredBrokerBacktest>(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('trading_platform_links_key_id_idx').on(table.credentialsKeyId),
    index('trading_platform_links_token_expires_idx').on(table.tokenExpiresAt),
    // A broker account is linked by one user at a time, per environment (demo or live): a
    // second user's link is refused, even when both race (decision 111). Unlinking deletes the
    // row, so the account can be linked again.
    uniqueIndex('trading_platform_links_broker_account_key')
      .on(table.platform, table.platformAccountId, sql`(${table.brokerAccount} ->> 'live')`)
      .where(sql`${table.brokerAccount} is not null`),
  ],
);

/**
 * Symbols of a broker account the robot cannot trade (decision 097): `unmapped` match none of our
 * catalogue's instruments, `unconvertible` have no conversion path to the account's currency.
 */
/**
 * A broker-prices backtest as stored (decision 144): the contract's shape, plus when the run last
 * wrote (a running row that stopped writing belongs to a process that stopped).
 */
export type StoredBrokerBacktest = Omit<BrokerBacktest, 'state'> & {
  readonly state: Exclude<BrokerBacktest['state'], 'none'>;
  readonly writtenAt: string;
};

export interface UntradableSymbols {
  unmapped: string[];
  unconvertible: string[];
  /** When the run read them, ISO 8601. */
  readAt: string;
}

/** The broker's account as the cTrader picker showed it (decision 091). */
export interface LinkedBrokerAccount {
  ctidTraderAccountId: number;
  live: boolean;
  brokerName: string;
  traderLogin: number;
  currency: string | null;
  leverage: number | null;
}

/**
 * An OAuth2 authorisation under way at cTrader (decision 091): the hash of the `state` we sent
 * (never the state itself), until the user comes back; then the grant, sealed like credentials,
 * and the accounts it covers, until the user picks one. Short-lived: an hour at most.
 */
export const ctraderAuthorizations = pgTable(
  'ctrader_authorizations',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: instant('expires_at').notNull(),
    /** The user came back with a code: the state is spent, whatever the exchange's outcome. */
    returnedAt: instant('returned_at'),
    grantCiphertext: text('grant_ciphertext'),
    grantKeyId: text('grant_key_id'),
    accounts: jsonb('accounts').$type<(LinkedBrokerAccount & { pickable: boolean })[]>(),
  },
  (table) => [index('ctrader_authorizations_user_idx').on(table.userId)],
);

/**
 * A link the user ended (decision 091): what was linked, whether the robot's open operations were
 * closed on request, and when. Kept after the link's own row and its sealed credentials are
 * erased, as consents are kept.
 */
export const platformUnlinks = pgTable(
  'platform_unlinks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    platformAccountId: text('platform_account_id').notNull(),
    closedPositions: boolean('closed_positions').notNull(),
    /** Operations the robot had open when the link ended. */
    openPositions: integer('open_positions').notNull(),
    unlinkedAt: instant('unlinked_at').notNull(),
  },
  (table) => [index('platform_unlinks_user_idx').on(table.userId)],
);

/**
 * The broker directory the search reads (docs/decisions/050-broker-directory-and-search.md).
 * Lists are Postgres arrays, so the search filters with array containment.
 */
export const brokers = pgTable('brokers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  regulators: text('regulators').array().notNull(),
  countries: text('countries').array().notNull(),
  platforms: text('platforms').array().notNull(),
  minDepositCents: cents('min_deposit_cents').notNull(),
  markets: text('markets').array().notNull(),
  robotSupported: boolean('robot_supported').notNull(),
  website: text('website'),
  /** A made-up entry of the embedded demo, labelled as an example on screen. */
  example: boolean('example').notNull().default(false),
  updatedAt: updatedAt(),
});

// Billing (docs/decisions/047-payments.md). Money is integer cents; a provider's objects are
// mirrored here from its signed events, keyed by the provider's ids so that a replayed event
// changes nothing.

/** Subscriptions: a provider's (simulated, stripe), or the free month (provider 'promo'). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<'simulated' | 'stripe' | 'promo'>().notNull(),
    /** null for the free month. */
    providerSubscriptionId: text('provider_subscription_id'),
    providerCustomerId: text('provider_customer_id'),
    /** null for the free month. */
    plan: text('plan').$type<'monthly' | 'yearly'>(),
    status: text('status')
      .$type<'trialing' | 'active' | 'past_due' | 'canceled' | 'refunded'>()
      .notNull(),
    startedAt: instant('started_at').notNull(),
    currentPeriodStart: instant('current_period_start').notNull(),
    currentPeriodEnd: instant('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** Until when it gives access (decision 047); null once it ended. */
    accessUntil: instant('access_until'),
    /** past_due: when the provider tries the failed charge again; null when it will not. */
    nextPaymentAttemptAt: instant('next_payment_attempt_at'),
    endedAt: instant('ended_at'),
    refundedAt: instant('refunded_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('subscriptions_provider_id_key').on(table.provider, table.providerSubscriptionId),
    index('subscriptions_user_idx').on(table.userId),
    // One free month per user, even when two requests race.
    uniqueIndex('subscriptions_one_free_month_key')
      .on(table.userId)
      .where(sql`${table.provider} = 'promo'`),
    index('subscriptions_access_idx').on(table.accessUntil),
  ],
);

/** Payments, one per charge at the provider. Never a card number: brand and last four only. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<'simulated' | 'stripe'>().notNull(),
    providerPaymentId: text('provider_payment_id').notNull(),
    /** What a refund names at the provider (Stripe: the payment intent). */
    refundRef: text('refund_ref').notNull(),
    plan: text('plan').$type<'monthly' | 'yearly'>().notNull(),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    paidAt: instant('paid_at').notNull(),
    periodStart: instant('period_start').notNull(),
    periodEnd: instant('period_end').notNull(),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    refundedAt: instant('refunded_at'),
    /** 'refund_7_days' (self-service), 'guarantee_30_days' (support) or 'provider' (elsewhere). */
    refundReason: text('refund_reason'),
    receiptSentAt: instant('receipt_sent_at'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('payments_provider_id_key').on(table.provider, table.providerPaymentId),
    index('payments_refund_ref_idx').on(table.provider, table.refundRef),
    index('payments_user_idx').on(table.userId, table.paidAt),
  ],
);

/** Provider events already applied: a replay is answered and ignored. */
export const billingEvents = pgTable(
  'billing_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: instant('received_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.eventId] })],
);

/**
 * The yearly plan's gift at the broker (spec §1), once per user: owed on the yearly payment,
 * granted as a deposit on the user's platform account once there is one (decision 048).
 */
export const brokerGifts = pgTable('broker_gifts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  paymentId: uuid('payment_id')
    .notNull()
    .references(() => payments.id, { onDelete: 'cascade' }),
  cents: cents('cents').notNull(),
  status: text('status').$type<'owed' | 'granting' | 'granted' | 'canceled'>().notNull(),
  owedAt: instant('owed_at').notNull(),
  /** The robot's time when the deposit was started: a deposit at or after it is this gift's. */
  grantStartedAt: instant('grant_started_at'),
  grantedAt: instant('granted_at'),
});

// The built-in simulated payment provider (src/payments/simulated): its own books, as another
// company would keep them. Our tables above learn from it only through its signed events.

export const simPayCheckouts = pgTable('sim_pay_checkouts', {
  id: text('id').primaryKey(),
  clientReference: text('client_reference').notNull(),
  email: text('email').notNull(),
  language: text('language').notNull(),
  plan: text('plan').$type<'monthly' | 'yearly'>().notNull(),
  amountCents: cents('amount_cents').notNull(),
  currency: text('currency').notNull(),
  successUrl: text('success_url').notNull(),
  cancelUrl: text('cancel_url').notNull(),
  /** A trial carried over (the free month): the first charge waits until then. */
  trialEnd: instant('trial_end'),
  status: text('status').$type<'open' | 'complete' | 'expired'>().notNull(),
  createdAt: instant('created_at').notNull(),
  expiresAt: instant('expires_at').notNull(),
  subscriptionId: text('subscription_id'),
});

export const simPaySubscriptions = pgTable(
  'sim_pay_subscriptions',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id').notNull(),
    clientReference: text('client_reference').notNull(),
    plan: text('plan').$type<'monthly' | 'yearly'>().notNull(),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status').$type<'trialing' | 'active' | 'past_due' | 'canceled'>().notNull(),
    createdAt: instant('created_at').notNull(),
    currentPeriodStart: instant('current_period_start').notNull(),
    currentPeriodEnd: instant('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: instant('canceled_at'),
    cardBrand: text('card_brand').notNull(),
    cardLast4: text('card_last4').notNull(),
    /** The test card that pays once and declines every renewal. */
    declinesRenewals: boolean('declines_renewals').notNull(),
    /** When the next charge (a renewal, or a retry after a decline) is due. */
    nextChargeAt: instant('next_charge_at'),
    failedAttempts: smallint('failed_attempts').notNull().default(0),
  },
  (table) => [index('sim_pay_subscriptions_due_idx').on(table.nextChargeAt)],
);

export const simPayCharges = pgTable(
  'sim_pay_charges',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => simPaySubscriptions.id, { onDelete: 'cascade' }),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    createdAt: instant('created_at').notNull(),
    periodStart: instant('period_start').notNull(),
    periodEnd: instant('period_end').notNull(),
    cardBrand: text('card_brand').notNull(),
    cardLast4: text('card_last4').notNull(),
    refundedAt: instant('refunded_at'),
  },
  (table) => [index('sim_pay_charges_subscription_idx').on(table.subscriptionId)],
);

/** The events the simulated provider owes our webhook: delivered, retried, durably. */
export const simPayEvents = pgTable(
  'sim_pay_events',
  {
    id: text('id').primaryKey(),
    /** The order they happened in: deliveries follow it. */
    sequence: bigint('sequence', { mode: 'number' }).generatedAlwaysAsIdentity(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: instant('created_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at'),
    deliveredAt: instant('delivered_at'),
    lastStatus: integer('last_status'),
  },
  (table) => [
    index('sim_pay_events_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.deliveredAt} is null`),
  ],
);

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
    /**
     * The TOTP secret (RFC 6238), shown once when the admin is created, sealed with
     * AES-256-GCM under `totp_key_id` (decision 059). A null key id is a secret stored in clear
     * before that: the server seals it when it starts.
     */
    totpSecret: text('totp_secret').notNull(),
    totpKeyId: text('totp_key_id'),
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
    /** Null for a failed console sign-in with an e-mail that is no admin's (decision 079). */
    adminId: uuid('admin_id').references(() => admins.id),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (table) => [index('admin_audit_log_created_at_idx').on(table.createdAt)],
);

// Jobs that run once (decision 078): a timed item (a webhook delivery, a receipt, a gift's
// deposit) is claimed here by one process before its side effect, with a lease on database
// time. A process that dies mid-job leaves its claim to lapse; one other process retries it,
// once (`claims` counts the runs).
export const jobClaims = pgTable(
  'job_claims',
  {
    job: text('job').notNull(),
    item: text('item').notNull(),
    owner: text('owner').notNull(),
    claims: integer('claims').notNull().default(1),
    claimedUntil: instant('claimed_until').notNull(),
    finishedAt: instant('finished_at'),
  },
  (table) => [
    primaryKey({ columns: [table.job, table.item] }),
    index('job_claims_finished_idx').on(table.finishedAt),
  ],
);

// Account leases (decision 092): each trading account is traded by the one robot process that
// holds its lease. `token` is taken from `robot_lease_tokens` on every claim (the fencing token,
// so it grows on every claim, and a claim's token is above every token claimed before it): every
// write of an intent, a fill or a platform order checks it, so a process whose lease was taken
// over changes 0 rows.
// Times are the database's `now()`, never a process's clock.
export const robotLeases = pgTable(
  'robot_leases',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The holding process (processName), '' while nobody has claimed it yet. */
    owner: text('owner').notNull().default(''),
    token: bigint('token', { mode: 'number' }).notNull().default(0),
    leaseUntil: instant('lease_until').notNull(),
    /** When the current owner claimed it (the status shows it). */
    heldSince: instant('held_since'),
  },
  (table) => [index('robot_leases_owner_idx').on(table.owner)],
);

/**
 * Blocks of position numbers (decision 092): each run of a robot holding leases numbers its
 * platform positions from its own block (block * 10^9 + 1 on), so that processes trading at the
 * same time never give two positions one id.
 */
export const robotPositionBlocks = pgSequence('robot_position_blocks');

/**
 * The fencing tokens of account leases (decision 092, amended): one sequence for every claim, so
 * a run's writes are fenced by owner and the greatest token the run holds (write-fence.ts), one
 * primary-key lookup a row, however many accounts the run holds.
 */
export const robotLeaseTokens = pgSequence('robot_lease_tokens');

/** The robot processes alive (decision 092): each counts the others to know its share. */
export const robotProcesses = pgTable('robot_processes', {
  owner: text('owner').primaryKey(),
  seenUntil: instant('seen_until').notNull(),
  /**
   * What the process last said of itself for the console's system page (decision 160): tick
   * lag, lease moves in the last hour, last errors. Null until its first report.
   */
  report: jsonb('report'),
});

// Notifications (decision 088): which events each user wants to hear about, and where the
// evening of their daily summary is. No row means the defaults of `defaultNotificationSettings`.
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  operations: boolean('operations').notNull().default(false),
  stopLoss: boolean('stop_loss').notNull().default(true),
  robotStopped: boolean('robot_stopped').notNull().default(true),
  marginWarning: boolean('margin_warning').notNull().default(true),
  dailySummary: boolean('daily_summary').notNull().default(true),
  timeZone: text('time_zone'),
  updatedAt: updatedAt(),
});

// The notification outbox (decision 088): each event once (`event_key` is unique), delivered
// once under a job claim (decision 078) on its `delivery` (the e-mail that carries it: the
// event's own key, or a batch of operations opened and closed within a minute).
export const notificationOutbox = pgTable(
  'notification_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    eventKey: text('event_key').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    delivery: text('delivery'),
    deliveredAt: instant('delivered_at'),
    /** `sent`, or why nothing was: `off` (switched off since), `no_account` (deleted). */
    outcome: text('outcome'),
  },
  (table) => [
    uniqueIndex('notification_outbox_event_key').on(table.eventKey),
    index('notification_outbox_undelivered_idx')
      .on(table.delivery, table.createdAt)
      .where(sql`${table.deliveredAt} is null`),
    index('notification_outbox_user_idx').on(table.userId, table.createdAt),
  ],
);

// Money notices (decision 148): a yearly plan renewing, the free month ending, a charge that
// failed. One row per (user, kind, period), written in the transaction that records the notice
// in the outbox: the row is what says the user was told, so a notice goes out once per period
// whatever the processes, the claims or the outbox's pruning.
export const moneyNotices = pgTable(
  'money_notices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `renewal_notice`, `free_month_ending` or `payment_failed`. */
    kind: text('kind').notNull(),
    /** Which period it was about (decision 148): the subscription and its period, or `free-month`. */
    period: text('period').notNull(),
    /** The outbox row's event key: what the e-mail said, while the outbox keeps it. */
    eventKey: text('event_key').notNull(),
    recordedAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind, table.period] })],
);

// Web push (decision 088): each browser a user allowed, as its push service gave it. A
// subscription the push service says is gone (404, 410) is deleted. Keyed on the endpoint and
// the user (decision 116): a user registering an endpoint takes it from nobody else.
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    endpoint: text('endpoint').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.endpoint, table.userId] }),
    index('push_subscriptions_user_idx').on(table.userId),
  ],
);
