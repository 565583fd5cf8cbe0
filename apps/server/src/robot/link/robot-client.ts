import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { BuiltInMarket } from '@tradebot/contract';
import {
  backoffDelay,
  InstrumentCatalogue,
  type AccountState,
  type AccountStatus,
  type PaperBrokerState,
  type RobotSettings,
} from '@tradebot/robot';
import type { DatabaseLink } from '../../db/database';
import type {
  AccountProjection,
  CTraderGrant,
  HostMessage,
  RobotEvent,
  RobotHostOptions,
  RobotOperation,
  RobotOperations,
  RobotStats,
  RobotWorkerData,
  WatchNotice,
} from '../protocol/robot-protocol';
import { RobotUnavailable, type RobotEventListener, type RobotRuntime } from './robot-runtime';
import { workerEntry } from '../../worker-entry';

/** Where the robot runs: a worker thread (the default), or this thread (tests with a strategy). */
export type RobotThread =
  | {
      readonly kind: 'worker';
      /** A new way into the database for each worker started. */
      readonly link: () => DatabaseLink;
      /** The worker's entry; the built `robot-worker.js` or its source by default. */
      readonly entry?: URL;
    }
  | {
      readonly kind: 'inline';
      /**
       * Starts the robot's host on this thread behind `port` (the composition passes
       * RobotHost.start: this side never imports the worker's code, decision 165).
       */
      readonly start: (port: MessagePort, options: RobotHostOptions) => Promise<unknown>;
    };

export interface RobotLog {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface RobotClientOptions {
  readonly thread: RobotThread;
  /** Everything but the clock's start, which is read at each (re)start. */
  readonly host: Omit<RobotHostOptions, 'clock'>;
  /** The robot's time in this thread; the robot's own clock follows the same rule. */
  readonly clock: { readonly now: () => number; readonly spec: () => RobotHostOptions['clock'] };
  readonly log: RobotLog;
  /** Told once an operation's closure is in the database (the closed-page cache). */
  readonly onClosureStored: (accountId: string) => void;
  /**
   * The linked cTrader accounts with their grants opened (decision 096): sent to each robot
   * started, and again on `syncCTrader`.
   */
  readonly ctraderGrants?: () => Promise<CTraderGrant[]>;
}

/** An account not read (nor listened to) for this long is no longer watched. */
const watchTtlMs = 60_000;
/** Restarts after a crash wait this long, doubling up to `restartMaxDelayMs`. */
const restartFirstDelayMs = 500;
const restartMaxDelayMs = 30_000;
/** A worker that ran this long before dying restarts at once again. */
const restartResetMs = 60_000;

interface Waiter {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * The robot's facade in the main thread (decisions 046 and 070): every call is a message to the
 * thread that runs the robot (RobotHost); reads come from the projections its events carry,
 * stored here, and the events are relayed to the listeners (live updates, the closed-page
 * cache, logs). Nothing here asks the robot for a view. A worker that dies
 * is logged and restarted (after 0.5 s, doubling up to 30 s while it keeps dying); meanwhile the
 * robot status says TRADING_HALTED and changes answer 503. The new worker restores the platform
 * and the robot's books from the database, as a restart after kill -9 does.
 */
export class RobotClient implements RobotRuntime {
  readonly catalogue = new InstrumentCatalogue();
  private port: MessagePort | Worker | undefined;
  private worker: Worker | undefined;
  private up = false;
  private market: BuiltInMarket | undefined;
  private stopping = false;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  /** Every account at the platform, as the robot's events last projected it. */
  private readonly projections = new Map<string, AccountProjection>();
  private readonly listeners = new Set<RobotEventListener>();
  /** Watched accounts (their price moves come), with when each was last read. */
  private readonly lastRead = new Map<string, number>();
  /** Reads waiting for the projection a `watch` notice makes the robot push at once. */
  private readonly watching = new Map<
    string,
    (projection: AccountProjection | undefined) => void
  >();
  private readonly watchTimer: NodeJS.Timeout;
  /** Linked broker accounts that cannot trade now, and why (BrokerStatus events). */
  private readonly brokerTrouble = new Map<
    string,
    'BROKER_DISCONNECTED' | 'BROKER_RECONNECT_NEEDED'
  >();

  builtInMarket(): BuiltInMarket | undefined {
    return this.market;
  }

  brokerStatus(accountId: string): 'BROKER_DISCONNECTED' | 'BROKER_RECONNECT_NEEDED' | null {
    return this.brokerTrouble.get(accountId) ?? null;
  }

  /** Settings applied while the robot was down, for the worker that replaces it. */
  private readonly settingsWhileDown = new Map<string, RobotSettings>();
  private restartTimer: NodeJS.Timeout | undefined;
  private restartAttempt = 0;
  private startedAt = 0;
  /** Settle the promise `connect` waits on. */
  private onReady: () => void = () => undefined;
  private onLost: (error: Error) => void = () => undefined;

  private constructor(private readonly options: RobotClientOptions) {
    this.watchTimer = setInterval(() => {
      this.forgetUnread();
    }, watchTtlMs / 2);
    this.watchTimer.unref();
  }

  /** Resolves once the robot is ready; rejects if it failed to start. */
  static async start(options: RobotClientOptions): Promise<RobotClient> {
    const client = new RobotClient(options);
    try {
      await client.connect();
    } catch (error) {
      clearInterval(client.watchTimer);
      throw error;
    }
    client.syncCTrader().catch((error: unknown) => {
      options.log.error({ err: error }, 'robot: starting the linked cTrader accounts failed');
    });
    return client;
  }

  /** Sends the robot the linked cTrader accounts as they are now (decision 096). */
  private syncingCTrader: Promise<void> = Promise.resolve();

  syncCTrader(): Promise<void> {
    const provider = this.options.ctraderGrants;
    if (!provider) return Promise.resolve();
    const next = this.syncingCTrader.then(async () => {
      if (!this.up) return;
      await this.request('ctraderGrants', { grants: await provider() });
    });
    this.syncingCTrader = next.catch(() => undefined);
    return next;
  }

  private hostOptions(): RobotHostOptions {
    return { ...this.options.host, clock: this.options.clock.spec() };
  }

  /** Starts the robot's thread and waits for it to be ready. */
  private async connect(): Promise<void> {
    const { thread } = this.options;
    const ready = new Promise<void>((resolve, reject) => {
      this.onReady = resolve;
      this.onLost = reject;
    });
    this.startedAt = Date.now();
    if (thread.kind === 'inline') {
      const { port1, port2 } = new MessageChannel();
      this.listen(port2);
      try {
        await thread.start(port1, this.hostOptions());
      } catch (error) {
        port2.close();
        throw error;
      }
    } else {
      const link = thread.link();
      const entry = workerEntry(import.meta.url, 'robot-worker', thread.entry, '../worker');
      const data: RobotWorkerData & { entry?: string } = {
        options: this.hostOptions(),
        link,
        ...(entry.source ? { entry: entry.source } : {}),
      };
      const worker = new Worker(entry.url, {
        workerData: data,
        transferList: link.kind === 'pglite' ? [link.port] : [],
      });
      this.worker = worker;
      this.listen(worker);
      worker.on('error', (error) => {
        this.options.log.error({ err: error }, 'robot: the worker failed');
      });
      worker.on('exit', (code) => {
        if (this.worker !== worker) return;
        this.worker = undefined;
        this.lost(new Error(`the robot's worker exited with code ${String(code)}`));
      });
    }
    await ready;
  }

  private listen(port: MessagePort | Worker): void {
    this.port = port;
    port.on('message', (message: HostMessage) => {
      if (this.port === port) this.receive(message);
    });
  }

  private receive(message: HostMessage): void {
    switch (message.type) {
      case 'ready':
        // A new robot watches nothing yet, and tells the broker statuses again.
        this.brokerTrouble.clear();
        this.lastRead.clear();
        this.projections.clear();
        for (const projection of message.projections) {
          this.projections.set(projection.accountId, projection);
        }
        this.market = message.builtInMarket;
        this.up = true;
        this.onReady();
        return;
      case 'answer':
      case 'refusal': {
        const waiter = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        if (message.type === 'answer') waiter?.resolve(message.value);
        else waiter?.reject(new Error(message.message));
        return;
      }
      case 'events':
        for (const event of message.events) this.apply(event);
        return;
      case 'failure':
        this.options.log.error(
          { err: new Error(message.message) },
          `robot: ${message.what} failed`,
        );
        return;
      case 'leases':
        // One line per event; the accounts only when it concerns some (the process is on the
        // logger: the robot plugin gives a child naming it).
        // At warn only what an operator must act on (the database out of reach, once an outage).
        if (message.level === 'warn') {
          this.options.log.warn(
            message.accountIds.length > 0 ? { accounts: message.accountIds } : {},
            message.message,
          );
        } else if (message.accountIds.length > 0) {
          this.options.log.info({ accounts: message.accountIds }, message.message);
        } else this.options.log.info({}, message.message);
        return;
      case 'info':
        this.options.log.info(message.fields, message.message);
        return;
      case 'released':
        for (const accountId of message.accountIds) {
          this.projections.delete(accountId);
          this.lastRead.delete(accountId);
        }
        return;
    }
  }

  /** Stores what the event says of its account, then relays it. */
  private apply(event: RobotEvent): void {
    switch (event.type) {
      case 'PositionOpened':
      case 'PositionClosed':
      case 'AccountChanged': {
        this.projections.set(event.accountId, event.projection);
        // The first event of the account since it was watched answers the reads waiting.
        const waiting = this.watching.get(event.accountId);
        this.watching.delete(event.accountId);
        waiting?.(event.projection);
        break;
      }
      case 'ClosureStored':
        this.options.onClosureStored(event.accountId);
        break;
      case 'TradingHalted':
        this.options.log.error({ reason: event.reason }, 'robot: trading halted');
        break;
      case 'BrokerStatus':
        if (event.status === null) this.brokerTrouble.delete(event.accountId);
        else this.brokerTrouble.set(event.accountId, event.status);
        break;
      case 'OrderRejected':
      case 'ModelWarmedUp':
      case 'TradingResumed':
      case 'RobotStopped':
        break;
    }
    for (const listener of this.listeners) listener(event);
  }

  /** The worker died: refuse what waits, show the robot as halted, and start a new one. */
  private lost(error: Error): void {
    const wasUp = this.up;
    this.up = false;
    this.port = undefined;
    for (const waiter of this.waiting.values()) waiter.reject(new RobotUnavailable());
    this.waiting.clear();
    for (const waiting of this.watching.values()) waiting(undefined);
    this.watching.clear();
    this.onLost(error);
    if (this.stopping || !wasUp) return;
    this.options.log.error(
      { err: error },
      'robot: the worker died; trading is halted until it restarts',
    );
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (Date.now() - this.startedAt > restartResetMs) this.restartAttempt = 0;
    const delay = backoffDelay(this.restartAttempt, {
      firstMs: restartFirstDelayMs,
      capMs: restartMaxDelayMs,
    });
    this.restartAttempt++;
    this.restartTimer = setTimeout(() => {
      this.connect().then(
        () => {
          this.options.log.info({ attempt: this.restartAttempt }, 'robot: the worker restarted');
          this.syncCTrader().catch((error: unknown) => {
            this.options.log.error({ err: error }, 'robot: restarting the cTrader accounts failed');
          });
          const settings = [...this.settingsWhileDown];
          this.settingsWhileDown.clear();
          for (const [accountId, applied] of settings) {
            this.applySettings(accountId, applied).catch((error: unknown) => {
              this.options.log.error({ err: error }, 'robot: applying settings failed');
            });
          }
        },
        (error: unknown) => {
          this.options.log.error({ err: error }, 'robot: the worker did not restart');
          if (!this.stopping) this.scheduleRestart();
        },
      );
    }, delay);
  }

  private request<K extends RobotOperation>(
    op: K,
    args: RobotOperations[K]['args'],
  ): Promise<RobotOperations[K]['answer']> {
    const port = this.port;
    if (!this.up || !port) return Promise.reject(new RobotUnavailable());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      port.postMessage({ ...args, op, id, now: this.options.clock.now() });
    });
  }

  /** Accounts not read lately: their price moves stop coming. */
  private forgetUnread(): void {
    const before = Date.now() - watchTtlMs;
    const forgotten: string[] = [];
    for (const [accountId, at] of this.lastRead) {
      if (at >= before) continue;
      this.lastRead.delete(accountId);
      forgotten.push(accountId);
    }
    this.notify({ op: 'unwatch', accountIds: forgotten });
  }

  private notify(notice: WatchNotice): void {
    if (notice.accountIds.length > 0 && this.up) this.port?.postMessage(notice);
  }

  watch(accountId: string): void {
    if (!this.up || !this.projections.has(accountId)) return;
    const known = this.lastRead.has(accountId);
    this.lastRead.set(accountId, Date.now());
    if (!known) this.notify({ op: 'watch', accountIds: [accountId] });
  }

  accountsWithOpenPositions(): Iterable<string> {
    const open: string[] = [];
    for (const [accountId, projection] of this.projections) {
      if (projection.trades.length > 0) open.push(accountId);
    }
    return open;
  }

  onEvent(listener: RobotEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  now(): number {
    return this.options.clock.now();
  }

  running(): boolean {
    return this.up;
  }

  hasAccount(accountId: string): boolean {
    return this.projections.has(accountId);
  }

  async openAccount(accountId: string, depositCents: number): Promise<void> {
    if (this.hasAccount(accountId)) return;
    await this.request('openAccount', { accountId, depositCents });
  }

  async deposit(accountId: string, cents: number): Promise<void> {
    await this.request('deposit', { accountId, cents });
  }

  async applySettings(accountId: string, settings: RobotSettings): Promise<void> {
    if (!this.up && !this.stopping) {
      // The new worker may have read the settings before they were stored: it gets them again.
      this.settingsWhileDown.set(accountId, settings);
      return;
    }
    await this.request('applySettings', { accountId, settings });
  }

  async closeAllPositions(accountId: string): Promise<number> {
    return this.request('closeAllPositions', { accountId });
  }

  async closePosition(accountId: string, positionId: string): Promise<boolean> {
    return this.request('closePosition', { accountId, positionId });
  }

  /**
   * The stored projection of a watched account. An account not watched yet (or every read, with
   * `mirrorMs` 0) is watched from now on, and the read waits for the projection the robot then
   * pushes at once: an event like any other, not a request.
   */
  projection(accountId: string): Promise<AccountProjection | undefined> {
    const stored = this.up ? this.projections.get(accountId) : undefined;
    if (!stored) return Promise.resolve(undefined);
    const known = this.lastRead.has(accountId);
    this.lastRead.set(accountId, Date.now());
    if (known && this.options.host.mirrorMs > 0) return Promise.resolve(stored);
    return new Promise((resolve) => {
      const before = this.watching.get(accountId);
      this.watching.set(accountId, (projection) => {
        before?.(projection);
        resolve(projection);
      });
      if (!before) this.notify({ op: 'watch', accountIds: [accountId] });
    });
  }

  async accountStatus(accountId: string): Promise<AccountStatus> {
    if (!this.up) return { idleReason: 'TRADING_HALTED' };
    return (await this.projection(accountId))?.status ?? { idleReason: 'ROBOT_OFF' };
  }

  async account(accountId: string): Promise<AccountState | undefined> {
    return (await this.projection(accountId))?.figures;
  }

  settled(): Promise<void> {
    return this.request('settled', {});
  }

  advance(): Promise<void> {
    return this.request('advance', {});
  }

  snapshot(): Promise<PaperBrokerState> {
    return this.request('snapshot', {});
  }

  stats(options: { readonly keepMax?: boolean } = {}): Promise<RobotStats> {
    return this.request('stats', options);
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.watchTimer);
    clearTimeout(this.restartTimer);
    try {
      if (this.up) await this.request('stop', {});
    } catch (error) {
      // A worker that died meanwhile left nothing to stop: its writes ended with it.
      if (!(error instanceof RobotUnavailable)) throw error;
    } finally {
      this.up = false;
      // Reads still waiting for a push get none now: the robot is down, as they then say.
      for (const waiting of this.watching.values()) waiting(undefined);
      this.watching.clear();
      const { worker, port } = this;
      this.worker = undefined;
      this.port = undefined;
      // The robot has stopped and closed its pool: nothing is left to end in the thread.
      if (worker) await worker.terminate();
      else if (port && 'close' in port) port.close();
    }
  }
}
