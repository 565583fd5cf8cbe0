// Starts a worker thread from TypeScript source (tests, `npm run dev`): the built server runs its
// bundled `dist/robot-worker.js` instead. `workerData.entry` is the .ts file's URL; tsx compiles
// it and what it imports in this thread.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
