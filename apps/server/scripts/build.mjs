// Bundles the server and our workspace packages into dist/main.js and dist/robot-worker.js. Third-party packages
// stay in node_modules (PGlite's WASM, geoip data and argon2's binary load from there).
import { build } from 'esbuild';
import { cpSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// protobufjs (the robot package's, for cTrader: decision 076) loads from node_modules too.
const external = [
  ...Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }),
  'protobufjs',
  'long',
];

// The robot's worker thread (decision 046) is its own entry: dist/main.js starts it from
// dist/robot-worker.js.
await build({
  entryPoints: {
    main: 'src/main.ts',
    'robot-worker': 'src/robot/robot-worker.ts',
    // The lease keeper's own thread (decision 092), started by the robot's host.
    'lease-keeper-worker': 'src/robot/lease-keeper-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
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
