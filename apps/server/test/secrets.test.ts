import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Secrets } from '../src/repositories/secrets';

describe('token hashes (decision 083: one-shot SHA-256)', () => {
  it('are SHA-256(pepper + token) in hex, as stored sessions were hashed, with and without a pepper', () => {
    const token = 'dGhpcy1pcy1hLXNlc3Npb24tdG9rZW4tZm9yLWEtdGVzdA';
    // A known answer (computed with createHash, as before the change): a stored session is still found.
    expect(new Secrets().hash(token)).toBe(
      'f9e46c2750fdbae1bef9de67f3819223b5db83f84a7dfe5bee30c81d69cd924e',
    );
    expect(new Secrets('pepper').hash(token)).toBe(
      createHash('sha256').update('pepper').update(token).digest('hex'),
    );
    expect(new Secrets('pepper').hash(token)).not.toBe(new Secrets().hash(token));
  });
});
