import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CredentialsCipher,
  CredentialsKeyError,
  type CredentialsKey,
  type SealedCredentials,
} from '../repositories/credentials-cipher';
import type { TradingPlatformLinksStore } from '../repositories/trading-platform-links.repository';
import { resealCredentials } from './credentials-rotation.service';

const keyOf = (id: string): CredentialsKey => ({ id, key: randomBytes(32) });
const k1 = keyOf('k1');
const k2 = keyOf('k2');
const k3 = keyOf('k3');

interface Link {
  userId: string;
  keyId: string | null;
  ciphertext: string | null;
}

const userId = (index: number) => `u${String(index).padStart(4, '0')}`;
const secretOf = (id: string) => `{"login":"${id}","password":"platform-password-${id}"}`;

/**
 * A plain stub of the links store over an array, ordered by user id as the database pages it.
 * `beforeReseal` runs before each replacement (another request writing the row meanwhile).
 */
function rig(links: Link[], beforeReseal?: (userId: string, rows: Link[]) => void) {
  const pages: { keyId: string; after: string | undefined; limit: number }[] = [];
  const store = {
    sealedWithOtherKey: (keyId: string, after: string | undefined, limit: number) => {
      pages.push({ keyId, after, limit });
      return Promise.resolve(
        links
          .filter((link) => link.keyId !== keyId && (after === undefined || link.userId > after))
          .sort((a, b) => (a.userId < b.userId ? -1 : 1))
          .slice(0, limit)
          .map((link) => ({ ...link })),
      );
    },
    reseal: (id: string, from: SealedCredentials, to: SealedCredentials) => {
      beforeReseal?.(id, links);
      const link = links.find((row) => row.userId === id);
      if (link?.keyId !== from.keyId || link.ciphertext !== from.ciphertext) {
        return Promise.resolve(false);
      }
      Object.assign(link, to);
      return Promise.resolve(true);
    },
    countByKey: () => {
      const counts: Record<string, number> = {};
      for (const link of links) {
        if (link.keyId !== null) counts[link.keyId] = (counts[link.keyId] ?? 0) + 1;
      }
      return Promise.resolve(counts);
    },
  } as unknown as TradingPlatformLinksStore;
  return { store, pages };
}

/** `count` links sealed with `cipher` for users u0000, u0001, ... */
function sealedLinks(count: number, cipher: CredentialsCipher): Link[] {
  return Array.from({ length: count }, (_, index) => {
    const id = userId(index);
    return { userId: id, ...cipher.seal(secretOf(id), id) };
  });
}

describe('resealCredentials', () => {
  it('reseals with the newest key what an older one sealed; each opens to the same credentials', async () => {
    const links = [
      ...sealedLinks(2, new CredentialsCipher([k1])),
      { userId: 'u9000', ...new CredentialsCipher([k1, k2, k3]).seal(secretOf('u9000'), 'u9000') },
    ];
    const untouched = links[2]?.ciphertext;
    const { store } = rig(links);
    const rotated = new CredentialsCipher([k1, k2, k3]);

    const report = await resealCredentials(store, rotated);

    expect(report).toEqual({ resealed: 2, changedMeanwhile: 0, byKey: { k3: 3 } });
    for (const link of links) {
      expect(link.keyId).toBe('k3');
      // Bound to its user: it opens with that user's id.
      expect(rotated.open(link as SealedCredentials, link.userId)).toBe(secretOf(link.userId));
    }
    expect(links[2]?.ciphertext).toBe(untouched);
  });

  it('never puts the credentials in its report', async () => {
    const { store } = rig(sealedLinks(3, new CredentialsCipher([k1])));

    const report = await resealCredentials(store, new CredentialsCipher([k1, k2]));

    expect(JSON.stringify(report)).not.toContain('platform-password');
  });

  it('skips a link that keeps no credentials', async () => {
    const links: Link[] = [
      { userId: 'u0001', keyId: null, ciphertext: null },
      ...sealedLinks(1, new CredentialsCipher([k1])),
    ];
    const { store } = rig(links);

    const report = await resealCredentials(store, new CredentialsCipher([k1, k2]));

    expect(report).toEqual({ resealed: 1, changedMeanwhile: 0, byKey: { k2: 1 } });
    expect(links[0]).toEqual({ userId: 'u0001', keyId: null, ciphertext: null });
  });

  it('leaves a link whose credentials changed meanwhile as the other writer left it, and counts it', async () => {
    const fresh = new CredentialsCipher([k1, k2]).seal(secretOf('u0001'), 'u0001');
    const links = sealedLinks(3, new CredentialsCipher([k1]));
    const { store } = rig(links, (id, rows) => {
      // A login seals the user's new credentials between the read and the write.
      const link = rows.find((row) => row.userId === id);
      if (link && id === 'u0001') Object.assign(link, fresh);
    });

    const report = await resealCredentials(store, new CredentialsCipher([k1, k2]));

    expect(report).toEqual({ resealed: 2, changedMeanwhile: 1, byKey: { k2: 3 } });
    expect(links[1]).toMatchObject(fresh);
  });

  it('goes page by page, 500 links at a time, after the last user id of each page', async () => {
    const links = sealedLinks(1_001, new CredentialsCipher([k1]));
    const { store, pages } = rig(links);

    const report = await resealCredentials(store, new CredentialsCipher([k1, k2]));

    expect(report).toEqual({ resealed: 1_001, changedMeanwhile: 0, byKey: { k2: 1_001 } });
    expect(pages).toEqual([
      { keyId: 'k2', after: undefined, limit: 500 },
      { keyId: 'k2', after: 'u0499', limit: 500 },
      { keyId: 'k2', after: 'u0999', limit: 500 },
    ]);
  });

  it('asks once more after a full last page, and stops at the empty one', async () => {
    const { store, pages } = rig(sealedLinks(500, new CredentialsCipher([k1])));

    expect((await resealCredentials(store, new CredentialsCipher([k1, k2]))).resealed).toBe(500);
    expect(pages.map((page) => page.after)).toEqual([undefined, 'u0499']);
  });

  it('is done at once when nothing is sealed with another key', async () => {
    const cipher = new CredentialsCipher([k1]);
    const { store, pages } = rig(sealedLinks(2, cipher));

    expect(await resealCredentials(store, cipher)).toEqual({
      resealed: 0,
      changedMeanwhile: 0,
      byKey: { k1: 2 },
    });
    expect(pages).toHaveLength(1);
  });

  it('stops with the key id when a credential was sealed with a key no longer configured', async () => {
    const links = [
      ...sealedLinks(1, new CredentialsCipher([k1])),
      { userId: 'u0001', ...new CredentialsCipher([k2]).seal(secretOf('u0001'), 'u0001') },
    ];
    const { store } = rig(links);

    const refusal = await resealCredentials(store, new CredentialsCipher([k1, k3])).catch(
      (error: unknown) => error,
    );

    expect(refusal).toBeInstanceOf(CredentialsKeyError);
    expect((refusal as Error).message).toContain('k2');
    expect((refusal as Error).message).not.toContain('platform-password');
    // What could be opened before it stays resealed; the other is left as it was.
    expect(links.map((link) => link.keyId)).toEqual(['k3', 'k2']);
  });
});
