/**
 * A worker thread's entry beside the module that starts it: the built `dist/<name>.js` next to
 * the bundle, or from source (tests, `npm run dev`) `<name>.ts`, which tsx compiles in the worker
 * (`scripts/tsx-worker-boot.mjs`, given the source's URL as `workerData.entry`).
 */
export function workerEntry(
  /** `import.meta.url` of the module starting the worker. */
  from: string,
  name: string,
  entry?: URL,
  /** From source, the entry's folder relative to the starter's (the bundle is one folder). */
  sourceFolder = '.',
): { url: URL; source?: string } {
  // Inside a worker started from source, tsx adds a query (`?tsx-namespace=…`) to the URL.
  const fromSource = new URL(from).pathname.endsWith('.ts');
  const url = entry ?? new URL(fromSource ? `${sourceFolder}/${name}.ts` : `./${name}.js`, from);
  if (!url.pathname.endsWith('.ts')) return { url };
  // From source this module is src/worker-entry.ts, whatever folder the starter is in.
  return { url: new URL('../scripts/tsx-worker-boot.mjs', import.meta.url), source: url.href };
}
