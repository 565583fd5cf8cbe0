import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
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
    .$type<Record<'forex' | 'cripto' | 'stocks' | 'index' | 'commodities' | 'all', boolean>>()
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
