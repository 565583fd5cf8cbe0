import { text } from './text';
import { z } from './zod';
import { categories } from './categories';
import { countryCodeSchema, languageSchema } from './common-schemas';
import { dataEnvelope } from './envelope';
import { brokerPlatforms, experienceLevels } from './platforms';

/**
 * The broker search (spec §2 searching-broker, five step pages): the visitor's answers, and the
 * brokers of the directory that fit them. docs/decisions/050-broker-directory-and-search.md.
 */
export const brokerSearchLimits = {
  /** USD. */
  maxDeposit: 10_000_000,
  maxResults: 50,
  name: 80,
  listItem: 80,
  listLength: 60,
  website: 300,
} as const;

const invalid = { error: 'validation.invalidValue' } as const;

export const brokerPlatformSchema = z.enum(brokerPlatforms, invalid);
export const experienceLevelSchema = z.enum(experienceLevels, invalid);

export const brokerSearchRequestSchema = z.object({
  /** Where the visitor lives: the broker must serve that country. */
  country: text(invalid).trim().toUpperCase().pipe(countryCodeSchema),
  /** Every market chosen must be offered. */
  markets: z
    .array(z.enum(categories, invalid), invalid)
    .min(1, { error: 'validation.required' })
    .max(categories.length, invalid)
    .refine((markets) => new Set(markets).size === markets.length, invalid),
  /** What the visitor plans to deposit, USD: the broker's minimum must not exceed it. */
  deposit: z
    .number(invalid)
    .int(invalid)
    .min(0, invalid)
    .max(brokerSearchLimits.maxDeposit, invalid),
  /** Orders the results (never hides any). */
  experience: experienceLevelSchema,
  /** A platform the visitor wants, or any. */
  platform: z.union([brokerPlatformSchema, z.literal('any')], invalid).default('any'),
  /** Only brokers with at least one regulator on record. */
  regulated_only: z.boolean(invalid).default(true),
  /** Only brokers the robot works with. */
  robot_only: z.boolean(invalid).default(false),
  language: languageSchema.optional(),
});
export type BrokerSearchRequest = z.input<typeof brokerSearchRequestSchema>;
export type BrokerSearchQuery = z.output<typeof brokerSearchRequestSchema>;

const listOf = <T extends z.ZodType>(item: T) => z.array(item).max(brokerSearchLimits.listLength);
const entryText = (max: number) => text().trim().min(1).max(max);

/** One entry of the directory as the operator loads it (docs/decisions/050). */
export const brokerDirectoryEntrySchema = z.strictObject({
  /** A stable slug: loading again updates the entry with this id. */
  id: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .max(60),
  name: entryText(brokerSearchLimits.name),
  regulators: listOf(entryText(brokerSearchLimits.listItem)),
  /** ISO 3166-1 alpha-2 codes of the countries served. */
  countries: listOf(countryCodeSchema).min(1),
  platforms: listOf(brokerPlatformSchema).min(1),
  min_deposit_usd: z.number().min(0).max(brokerSearchLimits.maxDeposit),
  markets: z.array(z.enum(categories)).min(1).max(categories.length),
  robot_supported: z.boolean(),
  website: z
    .url({ protocol: /^https$/ })
    .max(brokerSearchLimits.website)
    .nullish(),
  /** A made-up entry for demonstrations: the screens label it as an example. */
  example: z.boolean().default(false),
});
export type BrokerDirectoryEntry = z.input<typeof brokerDirectoryEntrySchema>;
export const brokerDirectorySchema = z.strictObject({
  brokers: z.array(brokerDirectoryEntrySchema).max(5_000),
});

export const brokerSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The built-in trading platform (simulated money), always offered. */
  builtIn: z.boolean(),
  example: z.boolean(),
  regulators: z.array(z.string()),
  /** Country codes; empty for the built-in platform, which serves every country. */
  countries: z.array(z.string()),
  platforms: z.array(brokerPlatformSchema),
  /** USD. */
  minDeposit: z.number(),
  markets: z.array(z.enum(categories)),
  robotSupported: z.boolean(),
  website: z.string().nullable(),
});
export type Broker = z.infer<typeof brokerSchema>;

export const brokerSearchResponseSchema = dataEnvelope(
  z.object({
    brokers: z.array(brokerSchema),
    /** Directory entries that fit, before the results were cut to `maxResults`. */
    matched: z.number().int(),
  }),
);
export type BrokerSearchResponse = z.infer<typeof brokerSearchResponseSchema>;
