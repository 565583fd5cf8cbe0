import { describe, expect, it } from 'vitest';
import { pgArrayLiteral } from './pg-array';

describe('pgArrayLiteral', () => {
  it('quotes text, escapes quotes and backslashes, and writes NULL and numbers bare', () => {
    expect(pgArrayLiteral(['a', 'b,c', 'say "hi"', 'back\\slash', null, 1.5, -2, 0.1])).toBe(
      '{"a","b,c","say \\"hi\\"","back\\\\slash",NULL,1.5,-2,0.1}',
    );
    expect(pgArrayLiteral([])).toBe('{}');
    expect(pgArrayLiteral(['NULL'])).toBe('{"NULL"}');
  });

  it('refuses numbers PostgreSQL would not read back', () => {
    expect(() => pgArrayLiteral([Number.NaN])).toThrow();
    expect(() => pgArrayLiteral([Infinity])).toThrow();
  });
});
