// The robot's worker, made to die once: the first worker started while ROBOT_TEST_CRASH_MARKER
// names a file that does not exist yet creates it, then throws an uncaught error when it is
// asked to advance the market. The workers started after it run as the real one does.
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';

const marker = process.env.ROBOT_TEST_CRASH_MARKER;
if (marker && !fs.existsSync(marker)) {
  fs.writeFileSync(marker, 'crashed once');
  // Registered before the robot's own listener: the request is never answered.
  parentPort?.on('message', (message: { op?: string }) => {
    if (message.op === 'advance') throw new Error('the robot worker crashed (test)');
  });
}
await import('../../src/robot/worker/robot-worker');
