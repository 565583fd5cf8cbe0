import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { isTimeZone, realQuotesCadences } from '@tradebot/contract';
import { testOnlyStrategies } from '@tradebot/robot';
import { testOnlyCrashPoints } from './robot/protocol/robot-protocol';
import { parseCredentialsKeys } from './repositories/credentials-cipher';

/**
 * Configuration is read once, from the environment, and validated at boot
 * (epic-stack style): a bad value stops the process with a readable message.
 */
const booleanish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The names proxy-addr knows for address ranges. */
const proxyRangeNames = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(item: string): boolean {
  if (proxyRangeNames.includes(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset/false (clients connect directly), a hop count (how many proxies stand in
 * front of the server: the client's address is the one that many entries from the end of
 * X-Forwarded-For), or a comma-separated list of the proxies' addresses/CIDRs. `true` would
 * believe whatever X-Forwarded-For a client sends, so that each request could choose its own
 * address (and country): it stops the server at boot (decision 051).
 */
const trustProxySchema = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    const lower = value.toLowerCase();
    if (lower === '' || lower === 'false' || lower === '0') return false;
    if (lower === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          'true is refused: it trusts any X-Forwarded-For a client sends, so every request ' +
          'could choose its own address (rate limits, country checks). Give the number of ' +
          'proxies in front of the server (e.g. 1 behind one load balancer) or their ' +
          'addresses/CIDRs (e.g. 10.0.0.0/8)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(lower)) return Number(lower);
    const list = value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    if (list.length > 0 && list.every(isAddressOrRange)) return list;
    ctx.addIssue({
      code: 'custom',
      message:
        'must be false, a hop count (e.g. 1), or a comma-separated list of proxy IPs/CIDRs ' +
        '(e.g. 10.0.0.0/8, 192.168.1.10)',
    });
    return z.NEVER;
  });

const urlWithProtocols = (protocols: string[]) =>
  z.url().refine((value) => protocols.some((protocol) => value.startsWith(`${protocol}:`)), {
    message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
  });

/** An IANA time zone this runtime knows ("America/Argentina/Buenos_Aires"). */
const timeZoneSchema = z.string().trim().refine(isTimeZone, {
  message: 'must be an IANA time zone, e.g. America/Argentina/Buenos_Aires',
});

/**
 * An instant: epoch milliseconds, or ISO-8601 with its zone (`2026-11-25T15:00:00Z`), so that
 * it never depends on the machine's time zone. Parsed to epoch ms.
 */
const marketInstant = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const instant = /^\d+$/.test(value)
      ? Number(value)
      : /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/i.test(value)
        ? Date.parse(value)
        : Number.NaN;
    if (!Number.isSafeInteger(instant)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be epoch milliseconds or an ISO-8601 instant with its zone, e.g. 2026-11-25T15:00:00Z',
      });
      return z.NEVER;
    }
    return instant;
  });

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
  /**
   * Bearer token of GET /metrics (Prometheus, decision 150). Unset: /metrics answers 404.
   */
  METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
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
  /**
   * Keys encrypting the admins' TOTP secrets at rest (decision 059), in the same format. Unset:
   * DATA_DIR/secrets/admin-totp.keys holds a generated one. Adding a newer key last and
   * restarting re-encrypts every secret with it.
   */
  ADMIN_TOTP_KEYS: z
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
  /**
   * Where the robot runs (decision 046): a worker thread of this process, so that its work never
   * delays an answer of the API, or this process's main thread (`inline`: debugging, profiling).
   */
  ROBOT_THREAD: z.enum(['worker', 'inline']).default('worker'),
  /**
   * The robot trades its own account too, for the public track record (decision 060): the
   * process running the robot opens it at start if missing.
   */
  TRACK_RECORD_ENABLED: booleanish.default(true),
  /**
   * Recorded real quotes the robot runs on for the track record (decision 142): a folder of
   * SYMBOL.csv files or Lean tick-quote folders (decision 125). Unset: the shared sample beside
   * the repository when there is one; `off`: none.
   */
  RECORDED_QUOTES_DIR: z.string().trim().min(1).optional(),
  /** Who recorded them, as the track record names them (default: known for the shared sample). */
  RECORDED_QUOTES_SOURCE: z.string().trim().min(1).max(120).optional(),
  /** How often the robot looks at them: every quote, or the last of each second or minute. */
  RECORDED_QUOTES_CADENCE: z.enum(realQuotesCadences).default('quote'),
  /**
   * The nice value of the process computing them: 19, the lowest priority, uses only CPU time
   * nothing else wants (on a busy machine the figures then take long to come).
   */
  RECORDED_QUOTES_NICE: z.coerce.number().int().min(0).max(19).default(19),
  /**
   * How often the robot sends this thread the projections of the accounts read lately, when they
   * moved with prices; its events carry them at once anyway (decisions 046 and 070). 0 sends
   * only those, and every read then waits for the robot to push the account.
   */
  ROBOT_MIRROR_MS: z.coerce.number().int().min(0).max(10_000).default(250),
  /**
   * Account leases (decision 092): several processes run the robot on one PostgreSQL, each
   * trading only the accounts whose lease it holds. Off (the embedded default): this process's
   * robot trades every account, as the only robot.
   */
  ROBOT_LEASES: booleanish.default(false),
  /** How long a claim or renewal holds an account, on the database's clock. */
  ROBOT_LEASE_MS: z.coerce.number().int().min(200).max(600_000).default(15_000),
  /** How often leases are renewed and free accounts claimed. */
  ROBOT_LEASE_RENEW_MS: z.coerce.number().int().min(50).max(60_000).default(3_000),
  /** How long before its lease could lapse a process stops sending orders for an account. */
  ROBOT_LEASE_MARGIN_MS: z.coerce.number().int().min(10).max(60_000).default(5_000),
  /** The most accounts one process holds. */
  ROBOT_CAPACITY: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
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
   * Tests only (issue 41): the instant the simulated market, and the robot's clock with it,
   * starts at (ISO-8601 with a zone, or epoch ms), instead of now; it then runs at MARKET_SPEED
   * from there. A test thus sees forex open (or closed) whatever day it runs on. A restart on the
   * same data continues after the latest time the robot recorded, as always. Refused unless
   * NODE_ENV=test.
   */
  MARKET_START: marketInstant.optional(),
  /**
   * The built-in platform's market (decision 140): `simulator` (the default), generated prices
   * with trends built in, or `recorded`: the quotes in MARKET_QUOTES_DIR (SYMBOL.csv files or
   * Lean tick-quote folders, decision 125) replayed on the robot's clock in a loop of whole weeks.
   * Only instruments with quotes are traded then. For an operator's own licensed data and tests.
   */
  MARKET_SOURCE: z.enum(['simulator', 'recorded']).default('simulator'),
  /** The folder of recorded quotes MARKET_SOURCE=recorded replays (required with it). */
  MARKET_QUOTES_DIR: z
    .string()
    .trim()
    .min(1)
    .transform((dir, ctx) => {
      const resolved = path.resolve(dir);
      if (!isFolder(resolved)) {
        ctx.addIssue({ code: 'custom', message: `${resolved} is not a folder` });
        return z.NEVER;
      }
      return resolved;
    })
    .optional(),
  /**
   * The recorded quotes' source as users read it ("OANDA"); by default the folder's name.
   */
  MARKET_QUOTES_NAME: z.string().trim().min(1).max(60).optional(),
  /**
   * Market history the signal model learns from at start (decision 149): simulated on the
   * simulator, the recording's own quotes before the start on recorded quotes; 0 skips it (the
   * model then needs its own outcomes first: the simulator's first operation came in minute 32
   * after ten minutes, in minute 3 after an hour). Unset: an hour, ten minutes under
   * NODE_ENV=test, whose many server starts would each pay the hour's CPU (seconds).
   */
  ROBOT_WARM_UP_MS: z.coerce.number().int().min(0).max(86_400_000).optional(),
  /**
   * End-to-end tests only (decision 093): the robot trades with a named test strategy instead of
   * the calibrated model, which may honestly find no edge for hours. Refused unless NODE_ENV=test.
   */
  ROBOT_TEST_ONLY_STRATEGY: z.enum(testOnlyStrategies).optional(),
  /**
   * Tests only (decision 092, amended): the robot process kills itself with SIGKILL at this point
   * of an order's life, the first time it is reached. Refused unless NODE_ENV=test.
   */
  ROBOT_TEST_ONLY_CRASH_AT: z.enum(testOnlyCrashPoints).optional(),
  /**
   * Payments through Stripe (decision 047) when both are set; otherwise the built-in simulated
   * provider. The secret key is sk_test_... or sk_live_...; the webhook secret whsec_...
   */
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .regex(
      /^(sk|rk)_(test|live)_\w{8,}$/,
      'must be a Stripe secret key (sk_test_... or sk_live_...)',
    )
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .trim()
    .regex(/^whsec_\w{8,}$/, 'must be a Stripe webhook signing secret (whsec_...)')
    .optional(),
  /**
   * Where the simulated provider delivers its webhooks; default this server's own listening
   * address. Its signing secret: SIM_PAY_WEBHOOK_SECRET, else one drawn at each start.
   */
  SIM_PAY_WEBHOOK_URL: urlWithProtocols(['http', 'https']).optional(),
  SIM_PAY_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * cTrader brokers through Spotware's Open API (decision 091). Without the application's client
   * id and secret, linking a cTrader broker is shown disabled. The redirect URI registered at
   * Spotware is PUBLIC_URL + /link-account/ctrader/callback unless CTRADER_REDIRECT_URI says.
   */
  CTRADER_CLIENT_ID: z.string().trim().min(1).max(200).optional(),
  CTRADER_CLIENT_SECRET: z.string().trim().min(1).max(200).optional(),
  CTRADER_REDIRECT_URI: urlWithProtocols(['http', 'https']).optional(),
  /** cTrader ID's granting page and the Open API's token endpoint (the fake's in tests). */
  CTRADER_AUTH_URL: urlWithProtocols(['http', 'https']).default(
    'https://id.ctrader.com/my/settings/openapi/grantingaccess/',
  ),
  CTRADER_TOKEN_URL: urlWithProtocols(['http', 'https']).default(
    'https://openapi.ctrader.com/apps/token',
  ),
  /**
   * Which accounts this server links and trades: demo (the default) or live, never both, since
   * Spotware serves them from different hosts. Its Open API host follows unless CTRADER_HOST
   * says (the fake's 127.0.0.1 in tests, with CTRADER_TLS=false).
   */
  CTRADER_ENVIRONMENT: z.enum(['demo', 'live']).default('demo'),
  CTRADER_HOST: z.string().trim().min(1).optional(),
  CTRADER_PORT: z.coerce.number().int().min(1).max(65535).default(5035),
  CTRADER_TLS: booleanish.default(true),
  /**
   * Support's inbox: contact messages are e-mailed there (decision 056), and e-mails give it to
   * users to write to. Unset, OPERATOR_EMAIL (the operator's, decision 053) does both; with
   * neither, e-mails point to the contact form and no address is made up (decision 156).
   */
  SUPPORT_EMAIL: z.email().optional(),
  OPERATOR_EMAIL: z.email().optional(),
  /** The operator's time zone: working hours and report days are counted in it. */
  SUPPORT_TIME_ZONE: timeZoneSchema.default('America/Argentina/Buenos_Aires'),
  /** Days off besides Saturdays and Sundays (comma-separated YYYY-MM-DD). */
  SUPPORT_HOLIDAYS: dateListSchema.default([]),
});

/**
 * The recorded quotes beside the repository (`../shared/market-data/oanda-2014-05`): test data
 * only, never copied into the repository or the build (decisions 125 and 142). This module and
 * the bundle (dist/main.js) both sit two folders below the repository.
 */
export const defaultRecordedQuotesDir = path.resolve(
  import.meta.dirname,
  '../../../../shared/market-data/oanda-2014-05',
);

/**
 * The address users are told to write to (SUPPORT_EMAIL, else OPERATOR_EMAIL), or null when the
 * server was given neither: then e-mails point to the contact form instead (decision 156).
 */
export function shownSupportEmail(
  config: Pick<Config, 'SUPPORT_EMAIL' | 'OPERATOR_EMAIL'>,
): string | null {
  return config.SUPPORT_EMAIL ?? config.OPERATOR_EMAIL ?? null;
}

/**
 * Where the server itself sends what is for support (contact messages, the web-push contact):
 * the shown address, else a placeholder on a reserved domain that is never shown to a user. A
 * contact message is in the console whether or not its e-mail reaches anyone (decision 056).
 */
export function supportInbox(config: Pick<Config, 'SUPPORT_EMAIL' | 'OPERATOR_EMAIL'>): string {
  return shownSupportEmail(config) ?? 'soporte@tradebot.local';
}

export type Config = Omit<z.infer<typeof configSchema>, 'ROBOT_WARM_UP_MS'> & {
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** As given, or its default for NODE_ENV (see the schema). */
  ROBOT_WARM_UP_MS: number;
};

/** ROBOT_WARM_UP_MS when unset (decision 149). */
export const defaultRobotWarmUpMs = { test: 600_000, other: 3_600_000 } as const;

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
  const parsed = configSchema
    .refine((config) => !config.STRIPE_SECRET_KEY === !config.STRIPE_WEBHOOK_SECRET, {
      message: 'set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or neither',
      path: ['STRIPE_WEBHOOK_SECRET'],
    })
    .refine((config) => !config.CTRADER_CLIENT_ID === !config.CTRADER_CLIENT_SECRET, {
      message: 'set both CTRADER_CLIENT_ID and CTRADER_CLIENT_SECRET, or neither',
      path: ['CTRADER_CLIENT_SECRET'],
    })
    .refine((config) => !config.ROBOT_TEST_ONLY_STRATEGY || config.NODE_ENV === 'test', {
      message: 'is for tests only: it is refused unless NODE_ENV=test',
      path: ['ROBOT_TEST_ONLY_STRATEGY'],
    })
    .refine((config) => !config.ROBOT_TEST_ONLY_CRASH_AT || config.NODE_ENV === 'test', {
      message: 'is for tests only: it is refused unless NODE_ENV=test',
      path: ['ROBOT_TEST_ONLY_CRASH_AT'],
    })
    .refine((config) => config.MARKET_SOURCE !== 'recorded' || config.MARKET_QUOTES_DIR, {
      message: 'is required with MARKET_SOURCE=recorded: the folder of recorded quotes',
      path: ['MARKET_QUOTES_DIR'],
    })
    .refine((config) => config.MARKET_START === undefined || config.NODE_ENV === 'test', {
      message: 'is for tests only: it is refused unless NODE_ENV=test',
      path: ['MARKET_START'],
    })
    .safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`),
    );
  }
  const warmUpMs =
    parsed.data.ROBOT_WARM_UP_MS ??
    (parsed.data.NODE_ENV === 'test' ? defaultRobotWarmUpMs.test : defaultRobotWarmUpMs.other);
  return {
    ...parsed.data,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    ROBOT_WARM_UP_MS: warmUpMs,
  };
}
