import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CredentialsCipher,
  addKeyToFile,
  loadOrCreateKeyFile,
  parseCredentialsKeys,
} from './credentials-cipher';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describe('CredentialsCipher', () => {
  const keys = parseCredentialsKeys(`${key('a')},${key('b')}`);
  const cipher = new CredentialsCipher(keys);

  it('seals with the newest key and opens what any configured key sealed', () => {
    const sealed = cipher.seal('secret', 'user-1');
    expect(sealed.keyId).toBe('b');
    expect(sealed.ciphertext).not.toContain('secret');
    expect(cipher.open(sealed, 'user-1')).toBe('secret');
    const byOld = new CredentialsCipher(keys.slice(0, 1)).seal('older', 'user-1');
    expect(cipher.open(byOld, 'user-1')).toBe('older');
    // A fresh nonce each time.
    expect(cipher.seal('secret', 'user-1').ciphertext).not.toBe(sealed.ciphertext);
  });

  it('refuses another user, an altered ciphertext and an unknown key', () => {
    const sealed = cipher.seal('secret', 'user-1');
    expect(() => cipher.open(sealed, 'user-2')).toThrow();
    const body = sealed.ciphertext.split('.');
    body[2] = Buffer.from('x').toString('base64url') + (body[2] ?? '').slice(2);
    expect(() => cipher.open({ ...sealed, ciphertext: body.join('.') }, 'user-1')).toThrow();
    expect(() => cipher.open({ ...sealed, keyId: 'c' }, 'user-1')).toThrow(/unknown key c/);
  });

  it('reads a key list, and says what is wrong with a bad one without echoing it', () => {
    expect(() => parseCredentialsKeys('a:c2hvcnQ=')).toThrow('key a is not 32 bytes of base64');
    expect(() => parseCredentialsKeys(`${key('a')},${key('a')}`)).toThrow('unique');
    expect(() => parseCredentialsKeys('no-colon')).toThrow('id:base64');
    expect(() => parseCredentialsKeys('')).toThrow('no key');
  });

  it('creates the embedded key file once, owner-only, and adds a newest key to it', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-keys-'));
    try {
      const file = path.join(dir, 'secrets', 'platform-credentials.keys');
      const now = new Date('2026-11-21T12:00:00Z');
      const first = await loadOrCreateKeyFile(file, now);
      expect(first.map((k) => k.id)).toEqual(['k20261121']);
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      expect(await loadOrCreateKeyFile(file, now)).toEqual(first);
      const rotated = await addKeyToFile(file, now);
      expect(rotated.map((k) => k.id)).toEqual(['k20261121', 'k20261121-2']);
      expect(new CredentialsCipher(rotated).currentKeyId).toBe('k20261121-2');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
