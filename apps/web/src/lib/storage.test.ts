import { afterEach, describe, expect, it } from 'vitest';
import { installMemoryStorage } from '../test/memory-storage';
import { storage, storageKeys } from './storage';

describe('storage (spec §3 Browser storage keys)', () => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  it('uses exactly the spec keys', () => {
    expect(storageKeys).toEqual([
      'token',
      'language',
      'showLanguageBtn',
      'sourceP',
      'sourceS',
      'sourcePromo',
      'sourceReferral',
    ]);
  });

  it('reads, writes and removes through localStorage', () => {
    restore = installMemoryStorage();
    storage.set('token', 'abc');
    expect(localStorage.getItem('token')).toBe('abc');
    expect(storage.get('token')).toBe('abc');
    storage.remove('token');
    expect(storage.get('token')).toBeNull();
  });

  it('never throws when storage is unavailable', () => {
    expect(() => {
      storage.set('language', 'pt');
      storage.remove('language');
    }).not.toThrow();
    expect(storage.get('language')).toBeNull();
  });
});
