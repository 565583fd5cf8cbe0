import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { StartupError } from '../startup-error';

/**
 * Trading-platform credentials at rest: AES-256-GCM with a 96-bit random nonce, the user's id
 * as additional data (a ciphertext copied to another user's row does not decrypt), and
 * several keys with ids: the newest encrypts, every one decrypts, and a rotation re-encrypts
 * with the newest (docs/decisions/049-linking-and-the-platform-port.md).
 */
export interface CredentialsKey {
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

export interface SealedCredentials {
  keyId: string;
  /** `base64url(nonce).base64url(tag).base64url(ciphertext)`. */
  ciphertext: string;
}

const keyIdPattern = /^[A-Za-z0-9_-]{1,32}$/;

export class CredentialsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialsKeyError';
  }
}

/** `id:base64key,id2:base64key`, oldest first: the last one is the newest. */
export function parseCredentialsKeys(text: string): CredentialsKey[] {
  const keys = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const separator = item.indexOf(':');
      const id = item.slice(0, separator);
      const key = Buffer.from(item.slice(separator + 1), 'base64');
      if (separator < 1 || !keyIdPattern.test(id)) {
        throw new CredentialsKeyError('each key is id:base64, the id 1-32 of A-Z a-z 0-9 _ -');
      }
      if (key.length !== 32) throw new CredentialsKeyError(`key ${id} is not 32 bytes of base64`);
      return { id, key };
    });
  if (keys.length === 0) throw new CredentialsKeyError('no key given');
  if (new Set(keys.map((key) => key.id)).size !== keys.length) {
    throw new CredentialsKeyError('key ids must be unique');
  }
  return keys;
}

export function formatCredentialsKeys(keys: readonly CredentialsKey[]): string {
  return keys.map((key) => `${key.id}:${key.key.toString('base64')}`).join(',');
}

/**
 * A fresh key whose id is its creation date and a random suffix: sortable, and never the id of
 * a key made earlier the same day and lost since (decision 065). Reusing an id would let the new
 * key pass for the old one, and what the old one sealed would fail only when read.
 */
export function newCredentialsKey(
  now: Date,
  existing: readonly CredentialsKey[] = [],
): CredentialsKey {
  const day = `k${now.toISOString().slice(0, 10).replaceAll('-', '')}`;
  let id: string;
  do id = `${day}-${randomBytes(4).toString('hex')}`;
  while (existing.some((key) => key.id === id));
  return { id, key: randomBytes(32) };
}

/** Where the embedded set-up keeps its keys when PLATFORM_CREDENTIALS_KEYS is unset. */
export function credentialsKeyFile(dataDir: string): string {
  return path.join(dataDir, 'secrets', 'platform-credentials.keys');
}

/**
 * The embedded default: the keys in DATA_DIR/secrets, created with one random key on first
 * use (readable by the owner only).
 */
export async function loadOrCreateKeyFile(file: string, now: Date): Promise<CredentialsKey[]> {
  try {
    return readKeyFile(file, await fs.readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const keys = [newCredentialsKey(now)];
  try {
    // 'wx': two processes starting together on one DATA_DIR keep the first one's key.
    await fs.writeFile(file, `${formatCredentialsKeys(keys)}\n`, { mode: 0o600, flag: 'wx' });
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readKeyFile(file, await fs.readFile(file, 'utf8'));
  }
}

/** A key file's keys; an empty or garbled file stops the start naming the file (decision 065). */
function readKeyFile(file: string, text: string): CredentialsKey[] {
  try {
    return parseCredentialsKeys(text);
  } catch (error) {
    if (!(error instanceof CredentialsKeyError)) throw error;
    throw new StartupError(
      `The key file ${file} is unusable (${error.message}): put back its copy from your backup ` +
        'of DATA_DIR/secrets. If it never sealed anything, delete it and a new key is made',
    );
  }
}

/** Adds a new newest key to the key file (the embedded rotation's first step). */
export async function addKeyToFile(file: string, now: Date): Promise<CredentialsKey[]> {
  const keys = await loadOrCreateKeyFile(file, now);
  const next = [...keys, newCredentialsKey(now, keys)];
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temporary, `${formatCredentialsKeys(next)}\n`, { mode: 0o600 });
  await fs.rename(temporary, file);
  return next;
}

export class CredentialsCipher {
  private readonly byId: Map<string, Buffer>;
  readonly currentKeyId: string;

  constructor(keys: readonly CredentialsKey[]) {
    const newest = keys.at(-1);
    if (!newest) throw new CredentialsKeyError('no key given');
    this.byId = new Map(keys.map((key) => [key.id, key.key]));
    this.currentKeyId = newest.id;
  }

  hasKey(id: string): boolean {
    return this.byId.has(id);
  }

  seal(plaintext: string, associatedData: string): SealedCredentials {
    const key = this.byId.get(this.currentKeyId);
    if (!key) throw new CredentialsKeyError('the newest key is missing');
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [nonce, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
    return { keyId: this.currentKeyId, ciphertext: parts.join('.') };
  }

  /** Throws when the key is unknown or the ciphertext (or its additional data) was altered. */
  open(sealed: SealedCredentials, associatedData: string): string {
    const key = this.byId.get(sealed.keyId);
    if (!key) throw new CredentialsKeyError(`unknown key ${sealed.keyId}`);
    const [nonce, tag, body] = sealed.ciphertext
      .split('.')
      .map((part) => Buffer.from(part, 'base64url'));
    if (!nonce || !tag || !body) throw new CredentialsKeyError('malformed ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}
