import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every module reachable from a file through relative value imports (type imports are erased). */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = fs.readFileSync(file, 'utf8');
  for (const match of source.matchAll(
    /^(?:import|export)\s+(?!type\b)[^;]*?from '(\.[^']+)';/gms,
  )) {
    reachable(path.resolve(path.dirname(file), `${match[1] ?? ''}.ts`), seen);
  }
  return seen;
}

describe('@tradebot/contract/constants', () => {
  it('never imports zod, directly or through another module', () => {
    const modules = [...reachable(path.join(import.meta.dirname, 'constants.ts'))];
    expect(modules.length).toBeGreaterThan(5);
    for (const module of modules) {
      expect(fs.readFileSync(module, 'utf8'), path.basename(module)).not.toMatch(
        /^(?:import|export)\s+(?!type\b)[^;]*from 'zod'/m,
      );
    }
  });

  it('is exported as a subpath of the package', async () => {
    const pkg = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8'),
    ) as { exports: Record<string, string> };
    expect(pkg.exports['./constants']).toBe('./src/constants.ts');
  });
});
