import { Worker } from 'node:worker_threads';
import type { DatabaseLink } from '../../db/database';
import type { LeaseLogLevel } from '../protocol/robot-protocol';
import type { LeaseKeeping, LeaseLog, LeaseOptions, LeaseRound } from './lease-keeper';
import { workerEntry } from '../../worker-entry';

/**
 * The lease keeper on its own thread (decision 092, addendum "the keeper on its own thread").
 * The robot's thread can be busy for seconds (10,000 accounts signalling on every tick); a keeper
 * sharing it renewed late and the process fenced itself out of its own accounts. Here the keeper
 * runs in a worker of its own with its own database connection, renews on its own timer, and
 * writes each held account's trading deadline (`process.hrtime` in ns, the one monotonic clock
 * of the process) into a shared slot; `mayTrade` reads the slot with no message. A renewal that
 * fails leaves the slot as it was, so trading stops by time alone, as before.
 *
 * Claims, losses and releases travel by message, in the keeper's order. A slot freed on the
 * keeper's side (an account lost or released) is zeroed at once and given to another account
 * only after the round that reported it: by then this side has forgotten the old account.
 */

/** What the host asks of the keeper's thread. */
export type KeeperRequest =
  | { readonly id: number; readonly op: 'round' }
  | { readonly id: number; readonly op: 'release'; readonly accountIds: readonly string[] }
  | { readonly id: number; readonly op: 'releaseAll' }
  | { readonly id: number; readonly op: 'stop' };

/** A claimed account: its id, fencing token and slot. */
export type ClaimedLease = readonly [accountId: string, token: number, slot: number];

export type KeeperMessage =
  | { readonly type: 'ready' }
  | {
      readonly type: 'log';
      readonly message: string;
      readonly accountIds: readonly string[];
      readonly level?: LeaseLogLevel;
    }
  | {
      readonly type: 'round';
      readonly id: number;
      readonly gained: readonly ClaimedLease[];
      /** Lost since the last round: taken over, or not renewed in time. */
      readonly lost: readonly string[];
      readonly surplus: readonly string[];
    }
  | { readonly type: 'done'; readonly id: number }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

export interface KeeperWorkerData {
  readonly link: DatabaseLink;
  readonly options: LeaseOptions;
  readonly renewMs: number;
  readonly slots: SharedArrayBuffer;
}

/** Slots for twice the capacity: the accounts held, and those freed but not yet reported. */
export const slotCount = (options: LeaseOptions) => 2 * options.capacity;

export class ThreadedLeaseKeeper implements LeaseKeeping {
  private readonly held = new Map<string, { readonly token: number; readonly slot: number }>();
  private readonly deadlines: BigInt64Array;
  private readonly waiting = new Map<
    number,
    { resolve: (message: KeeperMessage) => void; reject: (error: Error) => void }
  >();
  private lastId = 0;
  private gone: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    slots: SharedArrayBuffer,
    readonly options: LeaseOptions,
    private readonly log: LeaseLog,
  ) {
    this.deadlines = new BigInt64Array(slots);
  }

  /** Starts the keeper's thread; resolves once its database connection is open. */
  static async start(
    link: Extract<DatabaseLink, { kind: 'postgres' }>,
    options: LeaseOptions & { readonly renewMs: number },
    log: LeaseLog,
    entry?: URL,
  ): Promise<ThreadedLeaseKeeper> {
    const slots = new SharedArrayBuffer(slotCount(options) * BigInt64Array.BYTES_PER_ELEMENT);
    const { url, source } = workerEntry(import.meta.url, 'lease-keeper-worker', entry);
    const { renewMs, ...leaseOptions } = options;
    const data: KeeperWorkerData & { entry?: string } = {
      link,
      options: leaseOptions,
      renewMs,
      slots,
      ...(source ? { entry: source } : {}),
    };
    const worker = new Worker(url, { workerData: data });
    const keeper = new ThreadedLeaseKeeper(worker, slots, leaseOptions, log);
    // Until ready, a failure or an exit fails the start; after, it ends the keeper (`lose`).
    let started: { resolve: () => void; reject: (error: Error) => void } | undefined;
    const ready = new Promise<void>((resolve, reject) => {
      started = { resolve, reject };
    });
    const fail = (error: Error) => {
      if (started) {
        started.reject(error);
        started = undefined;
      } else keeper.lose(error);
    };
    worker.on('message', (message: KeeperMessage) => {
      if (message.type === 'ready') {
        started?.resolve();
        started = undefined;
      } else keeper.receive(message);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      fail(new Error(`the lease keeper's thread exited with code ${String(code)}`));
    });
    await ready;
    return keeper;
  }

  mayTrade(accountId: string): boolean {
    const lease = this.held.get(accountId);
    if (!lease) return false;
    return process.hrtime.bigint() < Atomics.load(this.deadlines, lease.slot);
  }

  tokenOf(accountId: string): number | undefined {
    return this.held.get(accountId)?.token;
  }

  heldAccounts(): string[] {
    return [...this.held.keys()];
  }

  async round(): Promise<LeaseRound> {
    const reply = await this.call({ id: ++this.lastId, op: 'round' });
    if (reply.type !== 'round') throw new Error(`the lease keeper answered ${reply.type}`);
    for (const accountId of reply.lost) this.held.delete(accountId);
    for (const [accountId, token, slot] of reply.gained) this.held.set(accountId, { token, slot });
    return {
      gained: reply.gained.map(([accountId]) => accountId),
      lost: reply.lost,
      surplus: reply.surplus,
    };
  }

  /** The accounts whose trading deadline passed (the keeper's thread drops them too). */
  expire(): string[] {
    const time = process.hrtime.bigint();
    const lost: string[] = [];
    for (const [accountId, lease] of this.held) {
      if (time >= Atomics.load(this.deadlines, lease.slot)) {
        this.held.delete(accountId);
        lost.push(accountId);
      }
    }
    if (lost.length > 0) {
      this.log('leases: stopped trading accounts whose lease this process lost', lost);
    }
    return lost;
  }

  async release(accountIds: readonly string[]): Promise<void> {
    for (const accountId of accountIds) this.held.delete(accountId);
    if (accountIds.length === 0) return;
    await this.call({ id: ++this.lastId, op: 'release', accountIds });
  }

  async releaseAll(): Promise<void> {
    this.held.clear();
    await this.call({ id: ++this.lastId, op: 'releaseAll' });
  }

  /** Ends the keeper's thread (after `releaseAll` at shutdown). */
  async close(): Promise<void> {
    if (!this.gone) await this.call({ id: ++this.lastId, op: 'stop' }).catch(() => undefined);
    this.gone ??= new Error('the lease keeper is closed');
    await this.worker.terminate();
  }

  private call(request: KeeperRequest): Promise<KeeperMessage> {
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  private receive(message: KeeperMessage): void {
    if (message.type === 'ready') return;
    if (message.type === 'log') {
      this.log(message.message, message.accountIds, message.level);
      return;
    }
    const waiter = this.waiting.get(message.id);
    if (!waiter) return;
    this.waiting.delete(message.id);
    if (message.type === 'failed') waiter.reject(new Error(message.message));
    else waiter.resolve(message);
  }

  /**
   * The thread died: nothing renews any more, so every deadline runs out and trading stops by
   * time; calls fail from now on (the host logs each failed round).
   */
  private lose(error: Error): void {
    if (this.gone) return;
    this.gone = error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    this.log(`leases: the keeper's thread stopped (${error.message})`, [], 'warn');
  }
}
