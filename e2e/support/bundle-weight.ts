import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const webDist = path.resolve(import.meta.dirname, '../../apps/web/dist');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface WeightedFile {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface InitialWeight {
  files: WeightedFile[];
  gzipBytes: number;
}

function readManifest(): Manifest {
  const file = path.join(webDist, '.vite/manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/** A chunk and everything it imports statically, recursively. */
function withStaticImports(manifest: Manifest, key: string, into: Set<string>) {
  if (into.has(key)) return;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`manifest has no ${key}`);
  into.add(key);
  for (const imported of chunk.imports ?? []) withStaticImports(manifest, imported, into);
}

/**
 * The JavaScript a Spanish visitor's browser needs to show `/` (docs/decisions/033): the
 * entry chunk and its static imports, the home route chunk and its static imports, and
 * the Spanish catalogue chunks the home route loads. Each file gzipped on its own (level
 * 9), as a server would send it.
 */
export function homeInitialWeight(locale = 'es'): InitialWeight {
  const manifest = readManifest();
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('manifest has no entry');
  const keys = new Set<string>();
  withStaticImports(manifest, entryKey, keys);
  withStaticImports(manifest, 'src/features/home/routes/home.tsx', keys);
  for (const namespace of ['common', 'home']) {
    const key = `src/locales/${locale}/${namespace}.json`;
    if (manifest[key]) withStaticImports(manifest, key, keys);
  }
  const files = [...keys].map((key) => {
    const file = manifest[key]?.file ?? key;
    const content = fs.readFileSync(path.join(webDist, file));
    return { file, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  });
  return { files, gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}

if (process.argv[1] === import.meta.filename) {
  const weight = homeInitialWeight();
  for (const file of weight.files.sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    console.log(`${(file.gzipBytes / 1024).toFixed(2).padStart(8)} KB  ${file.file}`);
  }
  console.log(`${(weight.gzipBytes / 1024).toFixed(2).padStart(8)} KB  total (gzip)`);
}
