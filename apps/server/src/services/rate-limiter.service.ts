import { AppError } from '../http/errors';
import type { Clock } from '../repositories/clock';
import type { RateLimitStore } from '../repositories/rate-limit.repository';

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

const minute = 60_000;

/** Limits per IP and per account (an e-mail or a user id), per action. */
export const rateLimitRules = {
  login: {
    perIp: { limit: 30, windowMs: 15 * minute },
    perAccount: { limit: 10, windowMs: 15 * minute },
  },
  forgotPassword: {
    perIp: { limit: 10, windowMs: 15 * minute },
    perAccount: { limit: 3, windowMs: 15 * minute },
  },
  setPassword: {
    perIp: { limit: 20, windowMs: 15 * minute },
    perAccount: { limit: 10, windowMs: 15 * minute },
  },
  validatePromocode: {
    perIp: { limit: 30, windowMs: minute },
    perAccount: { limit: 30, windowMs: minute },
  },
  // Contact messages each send two e-mails: a person writes a few an hour, not dozens.
  contact: {
    perIp: { limit: 20, windowMs: 60 * minute },
    perAccount: { limit: 5, windowMs: 60 * minute },
  },
  adminLogin: {
    perIp: { limit: 20, windowMs: 15 * minute },
    perAccount: { limit: 5, windowMs: 15 * minute },
  },
  // Per IP; a session also ends after five wrong codes (adminSessionPolicy).
  adminSecondFactor: {
    perIp: { limit: 20, windowMs: 15 * minute },
    perAccount: { limit: 10, windowMs: 15 * minute },
  },
} satisfies Record<string, { perIp: RateLimitRule; perAccount: RateLimitRule }>;

export type RateLimitedAction = keyof typeof rateLimitRules;

export class RateLimiterService {
  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: Clock,
  ) {}

  /** Counts one attempt; throws a localized 429 with Retry-After when over either limit. */
  async consume(action: RateLimitedAction, ip: string, account?: string): Promise<void> {
    const rules = rateLimitRules[action];
    const now = this.clock.now().getTime();
    const checks = [
      this.store.hit(`${action}:ip:${ip}`, rules.perIp.limit, rules.perIp.windowMs, now),
    ];
    if (account) {
      const key = `${action}:account:${account.trim().toLowerCase()}`;
      checks.push(this.store.hit(key, rules.perAccount.limit, rules.perAccount.windowMs, now));
    }
    const refused = (await Promise.all(checks)).filter((result) => !result.allowed);
    if (refused.length > 0) {
      const retryAfter = Math.max(...refused.map((result) => result.retryAfterSeconds));
      throw new AppError('RATE_LIMITED', undefined, undefined, {
        'retry-after': String(retryAfter),
      });
    }
  }
}
