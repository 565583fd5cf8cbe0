import path from 'node:path';
import { z } from 'zod';
import { parseCredentialsKeys } from './repositories/credentials-cipher';

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
  /**
   * Keys encrypting trading-platform credentials at rest: `id:base64(32 bytes)`, comma-separated,
   * oldest first (the last encrypts, all decrypt). Unset: DATA_DIR/secrets holds a generated one.
   */
  PLATFORM_CREDENTIALS_KEYS: z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      try {
        parseCredentialsKeys(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    })
    .optional(),
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
