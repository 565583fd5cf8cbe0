import { parentPort, workerData } from 'node:worker_threads';
import { openLinkedDatabase } from '../../db/database';
import { RobotHost } from './robot-host';
import type { RobotWorkerData } from '../protocol/robot-protocol';

/**
 * The robot's worker thread (decision 046): opens its way into the server's database (its own
 * pool on PostgreSQL, a link to the main thread's PGlite) and runs the robot behind a
 * RobotHost on `parentPort`. An uncaught error ends the thread; the main thread restarts it.
 */

/** As the main thread's pool: the robot's writes and the API's reads no longer share one. */
const robotPoolSize = 10;

if (!parentPort) throw new Error('robot-worker runs as a worker thread');
const { options, link } = workerData as RobotWorkerData;
const database = await openLinkedDatabase(link, { poolSize: robotPoolSize });
await RobotHost.start(parentPort, options, database.db, {
  onStopped: () => database.close(),
  // With leases on PostgreSQL the keeper gets a thread and a connection of its own.
  ...(options.leases && link.kind === 'postgres' ? { leaseLink: link } : {}),
});
