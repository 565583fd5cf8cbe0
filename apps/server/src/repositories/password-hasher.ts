import { hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id; the package exports it as an ambient const enum we cannot import. */
const argon2id = 2;

/** argon2id with OWASP's second recommended profile (19 MiB, t=2, p=1). */
const options = { algorithm: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
}

export const argon2PasswordHasher: PasswordHasher = {
  hash: (password) => hash(password, options),
  verify: async (hashed, password) => {
    try {
      return await verify(hashed, password);
    } catch {
      return false;
    }
  },
};
