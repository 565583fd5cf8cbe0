import { describe, expect, it } from 'vitest';
import { languageFromAcceptLanguage } from './language';

describe('languageFromAcceptLanguage', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['pt-BR,pt;q=0.9,en;q=0.8', 'pt'],
    ['en-US,en;q=0.9', undefined],
    ['en;q=0.9,es;q=0.8,pt;q=0.85', 'pt'],
    ['fr, ES-ar', 'es'],
    ['pt;q=0, es;q=0.1', 'es'],
  ])('%s -> %s', (header, expected) => {
    expect(languageFromAcceptLanguage(header)).toBe(expected);
  });
});
