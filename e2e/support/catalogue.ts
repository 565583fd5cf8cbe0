import fs from 'node:fs';
import path from 'node:path';

const locales = path.resolve(import.meta.dirname, '../../apps/web/src/locales');

/** A text from the web app's catalogues, by language, namespace and dotted key. */
export function catalogueText(language: 'es' | 'pt', namespace: string, key: string): string {
  const catalogue = JSON.parse(
    fs.readFileSync(path.join(locales, language, `${namespace}.json`), 'utf8'),
  ) as unknown;
  const value = key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
  if (typeof value !== 'string') throw new Error(`${language}/${namespace}:${key} is not a text`);
  return value;
}
