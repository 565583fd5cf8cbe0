import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = import.meta.dirname;
const namespaces = fs.readdirSync(path.join(root, 'es')).filter((file) => file.endsWith('.json'));

/** Every key path of a catalogue, arrays included ("items.0.q"). */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keyPaths(child, prefix ? `${prefix}.${key}` : key),
  );
}
const read = (language: string, file: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(root, language, file), 'utf8'));

describe('the es and pt catalogues', () => {
  it('have the same files', () => {
    expect(fs.readdirSync(path.join(root, 'pt')).sort()).toEqual([...namespaces].sort());
  });

  it.each(namespaces)('%s has the same keys in both languages, none empty', (file) => {
    const es = read('es', file);
    const pt = read('pt', file);
    // Portuguese alone writes a count of zero as its own form (`_zero`, plurals.test.ts):
    // Brazilian rules put 0 with 1, Spanish ones with the plural.
    const ptKeys = keyPaths(pt).filter((key) => !key.endsWith('_zero'));
    expect(ptKeys.sort()).toEqual(keyPaths(es).sort());
    for (const language of [es, pt]) {
      const empty = keyPaths(language).filter(
        (key) =>
          String(
            key
              .split('.')
              .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], language),
          ).trim() === '',
      );
      expect(empty).toEqual([]);
    }
  });

  it('keeps the Spanish wording the spec gives, verbatim', () => {
    const all = namespaces.map((file) => JSON.stringify(read('es', file))).join('\n');
    for (const text of [
      'Debes iniciar sesión para acceder a esta página',
      'Error al iniciar sesión',
      'El código promocional es inválido',
      'Lo sentimos, la página que buscas no existe',
    ]) {
      expect(all).toContain(text);
    }
  });
});
