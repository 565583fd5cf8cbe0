import { describe, expect, it } from 'vitest';
import esCheckout from './es/checkout.json';
import esCsv from './es/csv.json';
import esMail from './es/mail.json';
import ptCheckout from './pt/checkout.json';
import ptCsv from './pt/csv.json';
import ptMail from './pt/mail.json';
import { translator } from '.';

interface Catalogue {
  [key: string]: string | Catalogue;
}

/** Every key with its text, plural suffixes kept. */
function entries(catalogue: Catalogue, path = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${path}${key}`, value]] : entries(value, `${path}${key}.`),
  );
}

const variables = (text: string) =>
  [...text.matchAll(/{{(\w+)}}/g)].map((match) => match[1]).sort();
const withoutPlural = (key: string) => key.replace(/_(zero|one|other)$/, '');

describe("the server's catalogues", () => {
  for (const [name, es, pt] of [
    ['mail', esMail, ptMail],
    ['checkout', esCheckout, ptCheckout],
    ['csv', esCsv, ptCsv],
  ] as const) {
    it(`${name}: Portuguese has every Spanish text, with the same values to fill in`, () => {
      const spanish = new Map(entries(es).map(([key, text]) => [withoutPlural(key), text]));
      const portuguese = new Map(entries(pt).map(([key, text]) => [withoutPlural(key), text]));
      expect([...portuguese.keys()].sort()).toEqual([...spanish.keys()].sort());
      for (const [key, text] of spanish) {
        expect(variables(portuguese.get(key) ?? ''), key).toEqual(variables(text));
      }
    });
  }

  // Brazilian Portuguese's plural rules put 0 with 1; i18next takes `_zero` for 0 in any language.
  it('writes a count of zero in the plural in Portuguese', () => {
    const t = translator('pt');
    expect(t('notification.openedCount', { count: 0 })).toBe('0 operações abertas');
    expect(t('notification.openedCount', { count: 1 })).toBe('1 operação aberta');
    expect(t('notification.closedCount', { count: 0 })).toBe('0 fechadas');
    expect(translator('es')('notification.openedCount', { count: 0 })).toBe(
      '0 operaciones abiertas',
    );
  });

  it('fills values in as they are, never reading them as more placeholders', () => {
    const t = translator('es');
    expect(t('greeting', { name: '{{name}} <b>&' })).toBe('Hola, {{name}} <b>&:');
  });

  // Issue 39: "Bienvenido" to Lucía. A mail greets whoever reads it, with no gendered form.
  it('greets without a gendered word (bienvenido, estimado, querido; bem-vindo, prezado)', () => {
    // "Te damos la bienvenida" is a noun and says nothing of the reader.
    const gendered =
      /\b((?<!la )bienvenid[oa]s?|estimad[oa]s?|querid[oa]s?|bem-vind[oa]s?|prezad[oa]s?)\b/i;
    for (const [language, catalogue] of [
      ['es', esMail],
      ['pt', ptMail],
    ] as const) {
      const found = entries(catalogue).filter(([, text]) => gendered.test(text));
      expect(found, language).toEqual([]);
    }
  });
});
