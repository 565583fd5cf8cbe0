import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

/** Algorithm.Argon2id; the package exports it as an ambient const enum we cannot import. */
const argon2id = 2;

/** argon2id with OWASP's second recommended profile (19 MiB, t=2, p=1). */
const options = { algorithm: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * argon2 is memory-hard and runs on libuv's thread pool (four threads). More hashes at once
 * than cores only take turns on them and evict each other's 19 MiB from the caches, while
 * the event loop waits for a core: one per core at a time, the rest queue in order
 * (issue 11; docs/benchmarks.md, logins against argon2's ceiling).
 */
const oneHashPerCore = pLimit(os.availableParallelism());

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
}

export const argon2PasswordHasher: PasswordHasher = {
  hash: (password) => oneHashPerCore(() => hash(password, options)),
  verify: (hashed, password) =>
    oneHashPerCore(async () => {
      try {
        return await verify(hashed, password);
      } catch {
        return false;
      }
    }),
};
