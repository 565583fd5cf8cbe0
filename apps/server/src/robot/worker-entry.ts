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
): { url: URL; source?: string } {
  const url = entry ?? new URL(from.endsWith('.ts') ? `./${name}.ts` : `./${name}.js`, from);
  if (!url.pathname.endsWith('.ts')) return { url };
  return { url: new URL('../../scripts/tsx-worker-boot.mjs', from), source: url.href };
}
