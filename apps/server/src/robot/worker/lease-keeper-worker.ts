import { parentPort, workerData } from 'node:worker_threads';
import { openLinkedDatabase } from '../../db/database';
import { LeaseKeeper } from './lease-keeper';
import {
  slotCount,
  type ClaimedLease,
  type KeeperMessage,
  type KeeperRequest,
  type KeeperWorkerData,
} from './threaded-lease-keeper';

/**
 * The lease keeper's thread (threaded-lease-keeper.ts, decision 092): renews the accounts held
 * every `renewMs` on its own timer, whatever the robot's thread is doing, and publishes each
 * held account's trading deadline (ns on `process.hrtime`) in its slot of the shared buffer.
 * Requests (rounds that claim, releases, stop) run one at a time, in order, with the renewals.
 */
if (!parentPort) throw new Error('lease-keeper-worker runs as a worker thread');
const port = parentPort;
const { link, options, renewMs, slots } = workerData as KeeperWorkerData;
const deadlines = new BigInt64Array(slots);
// Two connections: a renewal and a round never wait for each other's connection.
const database = await openLinkedDatabase(link, { poolSize: 2 });
const send = (message: KeeperMessage) => {
  port.postMessage(message);
};
const keeper = new LeaseKeeper(database.db, options, (message, accountIds, level) => {
  send({ type: 'log', message, accountIds, ...(level ? { level } : {}) });
});

/** Each held account's slot. */
const slotOf = new Map<string, number>();
/** Slots anyone may take; freed ones join only once a round has reported them. */
const free = Array.from({ length: slotCount(options) }, (_, slot) => slotCount(options) - 1 - slot);
let freedSinceRound: number[] = [];
let reportedFree: number[] = [];
/** Accounts lost by renewals between rounds: the next round reports them. */
let lostSinceRound: string[] = [];

/** Writes the deadlines of what is held, and zeroes (and sets aside) the slots of what is not. */
function publish(): ClaimedLease[] {
  const gained: ClaimedLease[] = [];
  const held = new Set(keeper.heldAccounts());
  for (const [accountId, slot] of slotOf) {
    if (held.has(accountId)) continue;
    Atomics.store(deadlines, slot, 0n);
    slotOf.delete(accountId);
    freedSinceRound.push(slot);
  }
  for (const accountId of held) {
    const lease = keeper.lease(accountId);
    if (!lease) continue;
    let slot = slotOf.get(accountId);
    if (slot === undefined) {
      slot = free.pop();
      if (slot === undefined) throw new Error('no lease slot left');
      slotOf.set(accountId, slot);
      gained.push([accountId, lease.token, slot]);
    }
    Atomics.store(deadlines, slot, BigInt(Math.floor(lease.tradeUntil * 1e6)));
  }
  return gained;
}

let work: Promise<unknown> = Promise.resolve();
const enqueue = <T>(task: () => Promise<T>): Promise<T> => {
  const next = work.then(task);
  work = next.catch(() => undefined);
  return next;
};

let renewing = false;
const timer = setInterval(() => {
  if (renewing) return;
  renewing = true;
  void enqueue(async () => {
    lostSinceRound.push(...(await keeper.renewNow()));
    publish();
  }).finally(() => {
    renewing = false;
  });
}, renewMs);

async function handle(request: KeeperRequest): Promise<KeeperMessage> {
  switch (request.op) {
    case 'round': {
      // Slots reported by the last round are forgotten on the other side: they may be reused.
      free.push(...reportedFree);
      reportedFree = [];
      const round = await keeper.round({ renew: false });
      const gained = publish();
      const lost = [...new Set([...lostSinceRound, ...round.lost])];
      lostSinceRound = [];
      reportedFree = freedSinceRound;
      freedSinceRound = [];
      return { type: 'round', id: request.id, gained, lost, surplus: round.surplus };
    }
    case 'release':
      await keeper.release(request.accountIds);
      publish();
      return { type: 'done', id: request.id };
    case 'releaseAll':
      await keeper.releaseAll();
      publish();
      return { type: 'done', id: request.id };
    case 'stop':
      clearInterval(timer);
      await database.close();
      return { type: 'done', id: request.id };
  }
}

port.on('message', (request: KeeperRequest) => {
  enqueue(() => handle(request)).then(send, (error: unknown) => {
    send({
      type: 'failed',
      id: request.id,
      message: error instanceof Error ? error.message : String(error),
    });
  });
});
send({ type: 'ready' });
