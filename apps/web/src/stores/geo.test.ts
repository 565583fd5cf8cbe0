import { describe, expect, it } from 'vitest';
import { createGeoStore } from './geo';

describe('geo store (spec §4 Geo)', () => {
  it('starts empty', () => {
    expect(createGeoStore(() => Promise.resolve({ data: 'BR' })).getState().countryCode).toBe('');
  });

  it('stores the upper-cased code from the answer', async () => {
    const store = createGeoStore(() => Promise.resolve({ data: 'br' }));
    await expect(store.getState().ensureCountryCode()).resolves.toBe('BR');
    expect(store.getState().countryCode).toBe('BR');
  });

  it.each([
    ['a failure', () => Promise.reject(new Error('offline'))],
    ['an answer without data', () => Promise.resolve({})],
    ['an empty answer', () => Promise.resolve(undefined)],
    ['a blank code', () => Promise.resolve({ data: '  ' })],
  ])('falls back to AR on %s', async (_case, lookup) => {
    const store = createGeoStore(lookup);
    await expect(store.getState().ensureCountryCode()).resolves.toBe('AR');
    expect(store.getState().countryCode).toBe('AR');
  });

  it('asks the server once, however many callers', async () => {
    let calls = 0;
    const store = createGeoStore(() => {
      calls += 1;
      return Promise.resolve({ data: 'UY' });
    });
    const answers = await Promise.all([
      store.getState().ensureCountryCode(),
      store.getState().ensureCountryCode(),
    ]);
    await store.getState().ensureCountryCode();
    expect(answers).toEqual(['UY', 'UY']);
    expect(calls).toBe(1);
  });
});
