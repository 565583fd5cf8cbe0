import { describe, expect, it } from 'vitest';
import { normalizeUserConfig } from './user-config';

describe('normalizeUserConfig', () => {
  it('defaults risk to 1 and denies everything on an empty answer', () => {
    const config = normalizeUserConfig(undefined);
    expect(config.settings.risk).toBe(1);
    expect(config.linked || config.login_tradear || config.authorized).toBe(false);
    expect(Object.values(config.settings.categories_enabled).every((value) => !value)).toBe(true);
  });

  it.each([
    [true, true],
    [1, true],
    ['1', true],
    ['TRUE', true],
    [false, false],
    [0, false],
    ['0', false],
    ['yes', false],
    [null, false],
  ])('coerces category %j to %s', (raw, expected) => {
    expect(
      normalizeUserConfig({ settings: { categories_enabled: { forex: raw } } }).settings
        .categories_enabled.forex,
    ).toBe(expected);
  });
});
