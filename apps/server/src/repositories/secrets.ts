import { hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Token and code hashing. Tokens are 256 random bits; what we store is
 * SHA-256(pepper + token), so a database leak yields no usable token. The pepper is
 * TOKEN_SECRET (optional); rotating it revokes every session.
 */
export class Secrets {
  constructor(private readonly pepper = '') {}

  newToken(): string {
    return randomBytes(32).toString('base64url');
  }

  /** Six digits, uniformly drawn, leading zeros kept. */
  newRecoveryCode(): string {
    return randomInt(0, 1_000_000).toString().padStart(6, '0');
  }

  /**
   * SHA-256(pepper + secret), hex. Every authenticated request hashes its token: the one-shot
   * `crypto.hash` skips building a Hash object and its stream state (decision 083).
   */
  hash(secret: string): string {
    return hash('sha256', this.pepper + secret, 'hex');
  }

  matches(secret: string, expectedHash: string): boolean {
    const actual = Buffer.from(this.hash(secret), 'hex');
    const expected = Buffer.from(expectedHash, 'hex');
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
