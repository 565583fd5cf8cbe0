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
import { StartupError } from '../startup-error';

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
      expect(first.map((k) => k.id)).toEqual([expect.stringMatching(/^k20261121-[0-9a-f]{8}$/)]);
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      expect(await loadOrCreateKeyFile(file, now)).toEqual(first);
      const rotated = await addKeyToFile(file, now);
      expect(rotated).toHaveLength(2);
      expect(rotated[0]).toEqual(first[0]);
      expect(rotated[1]?.id).toMatch(/^k20261121-[0-9a-f]{8}$/);
      expect(rotated[1]?.id).not.toBe(first[0]?.id);
      expect(new CredentialsCipher(rotated).currentKeyId).toBe(rotated[1]?.id);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('never gives a key made again the same day, after the file was lost, the lost key’s id', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-keys-'));
    try {
      const file = path.join(dir, 'secrets', 'admin-totp.keys');
      const now = new Date('2026-11-21T12:00:00Z');
      const [lost] = await loadOrCreateKeyFile(file, now);
      await fs.rm(path.dirname(file), { recursive: true });
      const [made] = await loadOrCreateKeyFile(file, new Date('2026-11-21T18:00:00Z'));
      expect(made?.id).not.toBe(lost?.id);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('names the key file when it is empty or garbled', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-keys-'));
    try {
      const file = path.join(dir, 'platform-credentials.keys');
      const now = new Date('2026-11-21T12:00:00Z');
      for (const text of ['', '\n', 'garbage', 'k1:c2hvcnQ=']) {
        await fs.writeFile(file, text);
        const error = await loadOrCreateKeyFile(file, now).catch((thrown: unknown) => thrown);
        expect(error).toBeInstanceOf(StartupError);
        expect((error as Error).message).toContain(file);
        expect((error as Error).message).not.toContain('\n');
        expect((error as Error).message).not.toContain('c2hvcnQ');
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
