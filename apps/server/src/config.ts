import path from 'node:path';
import { z } from 'zod';

/**
 * Configuration is read once, from the environment, and validated at boot
 * (epic-stack style): a bad value stops the process with a readable message.
 */
const booleanish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** TRUST_PROXY: unset/false, true, a hop count, or a comma-separated list of addresses/CIDRs. */
const trustProxySchema = z
  .string()
  .trim()
  .transform((value, ctx): boolean | number | string[] => {
    const lower = value.toLowerCase();
    if (lower === '' || lower === 'false' || lower === '0') return false;
    if (lower === 'true') return true;
    if (/^\d+$/.test(lower)) return Number(lower);
    const list = value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    if (list.every((item) => /^[0-9a-fA-F.:/]+$/.test(item))) return list;
    ctx.addIssue({
      code: 'custom',
      message: 'must be true, false, a hop count, or a comma-separated list of IPs/CIDRs',
    });
    return z.NEVER;
  });

const urlWithProtocols = (protocols: string[]) =>
  z.url().refine((value) => protocols.some((protocol) => value.startsWith(`${protocol}:`)), {
    message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
  });

/** An IANA time zone this runtime knows ("America/Argentina/Buenos_Aires"). */
const timeZoneSchema = z
  .string()
  .trim()
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be an IANA time zone, e.g. America/Argentina/Buenos_Aires' },
  );

/** Comma-separated YYYY-MM-DD dates. */
const dateListSchema = z
  .string()
  .trim()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a comma-separated list of YYYY-MM-DD dates')
        .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), 'is not a date'),
    ),
  );

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: urlWithProtocols(['postgres', 'postgresql']).optional(),
  REDIS_URL: urlWithProtocols(['redis', 'rediss']).optional(),
  TRUST_PROXY: trustProxySchema.default(false),
  PUBLIC_URL: urlWithProtocols(['http', 'https']).optional(),
  SMTP_URL: urlWithProtocols(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().trim().min(3).default('Tradebot <no-reply@tradebot.local>'),
  /** Pepper mixed into token hashes; rotate to revoke every session at once. */
  TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().trim().min(1).optional(),
  SEED_DEMO: booleanish.default(true),
  /** Run the robot (simulated market, built-in platform, engine) in this process. */
  ROBOT_ENABLED: booleanish.default(true),
  /** Simulated time between two quotes of an instrument, and the market timer's period. */
  MARKET_TICK_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Seed of the simulated market; unset, each start draws one. */
  MARKET_SEED: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  /**
   * Simulated milliseconds per wall-clock millisecond. 1 (the default) is real time; more makes
   * the market, and the robot's clock with it, run faster: for tests and demonstrations only.
   */
  MARKET_SPEED: z.coerce.number().min(1).max(10_000).default(1),
  /**
   * Simulated market history the signal model learns from at start, so that a fresh start
   * trades within a minute; 0 skips it (the model then needs hours of live quotes).
   */
  ROBOT_WARM_UP_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
  /** Where contact messages are e-mailed (decision 056). */
  SUPPORT_EMAIL: z.email().default('soporte@tradebot.local'),
  /** The operator's time zone: working hours and report days are counted in it. */
  SUPPORT_TIME_ZONE: timeZoneSchema.default('America/Argentina/Buenos_Aires'),
  /** Days off besides Saturdays and Sundays (comma-separated YYYY-MM-DD). */
  SUPPORT_HOLIDAYS: dateListSchema.default([]),
});

export type Config = z.infer<typeof configSchema> & {
  /** Absolute DATA_DIR. */
  dataDir: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", as in most .env files.
  const cleaned = Object.fromEntries(
    Object.keys(configSchema.shape)
      .map((key) => [key, env[key]] as const)
      .filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`),
    );
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}
