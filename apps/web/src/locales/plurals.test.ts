import { describe, expect, it } from 'vitest';

interface Catalogue {
  [key: string]: string | Catalogue;
}
const portuguese = import.meta.glob<Catalogue>('./pt/*.json', { eager: true, import: 'default' });

function pluralKeys(catalogue: Catalogue, path = ''): { path: string; object: Catalogue }[] {
  return Object.entries(catalogue).flatMap(([key, value]) => {
    if (typeof value !== 'object') return [];
    const here = `${path}${key}.`;
    const found = Object.keys(value).some((name) => name.endsWith('_one'))
      ? [{ path: here, object: value }]
      : [];
    return [...found, ...pluralKeys(value, here)];
  });
}

describe('Portuguese plurals', () => {
  // Brazilian Portuguese's plural rules put 0 with 1 ("0 aberta"); i18next takes a `_zero` key
  // for a count of 0 whatever the rules, so every count has its plural there.
  it('writes a count of zero in the plural', () => {
    const files = Object.entries(portuguese);
    expect(files.length).toBeGreaterThan(10);
    for (const [file, catalogue] of files) {
      for (const { path, object } of pluralKeys(catalogue)) {
        for (const key of Object.keys(object).filter((name) => name.endsWith('_one'))) {
          const base = key.slice(0, -'_one'.length);
          expect(object[`${base}_zero`], `${file} ${path}${base}_zero`).toBe(
            object[`${base}_other`],
          );
        }
      }
    }
  });
});
