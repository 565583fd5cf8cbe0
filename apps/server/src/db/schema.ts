import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
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
  // E-mail is unique case-insensitively.
  (table) => [uniqueIndex('users_email_lower_key').on(sql`lower(${table.email})`)],
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
