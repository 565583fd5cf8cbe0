import { describe, expect, it } from 'vitest';
import { eurusdOpenAt } from './fixtures';

describe('eurusdOpenAt', () => {
  it('is open on a weekday and closed at the weekend, as our catalogue trades forex', () => {
    expect(eurusdOpenAt(Date.parse('2026-11-26T10:00:00Z'))).toBe(true); // Thursday
    expect(eurusdOpenAt(Date.parse('2026-11-28T10:00:00Z'))).toBe(false); // Saturday
    expect(eurusdOpenAt(Date.parse('2026-11-29T12:00:00Z'))).toBe(false); // Sunday noon
  });
});
