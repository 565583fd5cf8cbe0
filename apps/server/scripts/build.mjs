// Bundles the server and our workspace packages into dist/main.js and its workers' entries. Third-party packages
// stay in node_modules (PGlite's WASM, geoip data and argon2's binary load from there).
import { build } from 'esbuild';
import { cpSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// protobufjs (cTrader's protocol: decision 076) and yauzl (the recorded quotes' zips, decisions
// 125 and 140) are the robot package's, and this package names them too, at the same majors, so
// that dist/ resolves the robot's versions and not an older one another package hoisted (yauzl 2
// under geoip-country). Bundled, their CommonJS requires of node's modules would fail in the ESM
// bundle.
const external = [...Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }), 'long'];
const common = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
};

// The robot's worker thread (decision 046) is its own entry: dist/main.js starts it from
// dist/robot-worker.js.
await build({
  entryPoints: {
    main: 'src/main.ts',
    'robot-worker': 'src/robot/worker/robot-worker.ts',
    // The lease keeper's own thread (decision 092), started by the robot's host.
    'lease-keeper-worker': 'src/robot/worker/lease-keeper-worker.ts',
    // The robot on a linked broker's own prices, replayed off the event loop (decision 161).
    'broker-backtest-worker': 'src/platforms/ctrader/broker-backtest-worker.ts',
  },
  ...common,
});

// The robot on recorded quotes for the track record, a child process (decision 142). It bundles
// the robot's zip reader (yauzl 3, CommonJS, which requires node's modules): the bundle gets a
// \`require\` of its own.
await build({
  entryPoints: { 'real-quotes-child': 'src/real-quotes/real-quotes-child.ts' },
  ...common,
  banner: {
    js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
  },
});

// The cTrader Open API's official definitions, read at run time beside the bundle (decision 091):
// CTraderProtocol.load() looks for ./proto/ next to the module, dist/ once bundled.
cpSync(
  new URL('../../../packages/robot/src/broker/ctrader/proto/', import.meta.url),
  new URL('../dist/proto/', import.meta.url),
  {
    recursive: true,
  },
);
