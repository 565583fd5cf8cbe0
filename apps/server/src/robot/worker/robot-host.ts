import { SignalModel, testOnlyStrategy, type Strategy, type TradeRecord } from '@tradebot/robot';
import type { OrderRejection } from '@tradebot/contract';
import type { DatabaseLink, Db } from '../../db/database';
import { orderRejectionOf, tradeRowOf } from '../../domain/trading-rows';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/migrate';
import { LeaseKeeper, type LeaseKeeping, type LeaseLog } from './lease-keeper';
import { ThreadedLeaseKeeper } from './threaded-lease-keeper';
import { RobotCore, type RobotCoreOptions } from './robot-core';
import { RobotStatsCounter } from './robot-stats';
import { fenceOf } from './write-fence';
import type {
  AccountProjection,
  CTraderGrant,
  ClientMessage,
  HostMessage,
  RobotEvent,
  RobotHostOptions,
  RobotOperations,
  RobotRequest,
} from '../protocol/robot-protocol';

/** Where the host talks: the worker's `parentPort`, or one end of a MessageChannel (inline). */
export interface HostPort {
  postMessage(message: HostMessage): void;
  on(event: 'message', listener: (message: ClientMessage) => void): unknown;
}

export interface RobotHostExtras {
  /** A strategy object (tests): it cannot cross threads, so only an inline host takes one. */
  readonly strategy?: Strategy;
  /** Runs once the robot has stopped, before `stop` is answered (the worker closes its pool). */
  readonly onStopped?: () => Promise<void>;
  /**
   * With leases on PostgreSQL: the database for the keeper's own thread (decision 092), which
   * renews whatever this thread is doing. Without it the keeper runs on this thread.
   */
  readonly leaseLink?: DatabaseLink;
}

/** An engine event waiting for the account's projection, built once per batch. */
type PendingChange =
  | { readonly type: 'PositionOpened' | 'PositionClosed'; readonly trade: TradeRecord }
  | { readonly type: 'ClosureStored'; readonly accountId: string }
  | {
      readonly type: 'OrderRejected';
      readonly accountId: string;
      readonly rejection: OrderRejection;
    }
  | { readonly type: 'TradingHalted'; readonly reason: string }
  | { readonly type: 'TradingResumed' }
  | { readonly type: 'ModelWarmedUp'; readonly accountId: string }
  | {
      readonly type: 'BrokerStatus';
      readonly accountId: string;
      readonly status: 'BROKER_DISCONNECTED' | 'BROKER_RECONNECT_NEEDED' | null;
    };

/**
 * The robot's side of the facade (decisions 046 and 070): runs a RobotCore, answers the main
 * thread's requests on a port, and owns the accounts' projections. What happens goes out as one
 * typed stream of past-tense events (robot-protocol's RobotEvent), in batches, one per turn of
 * the event loop, and always before the next answer, so that the main thread sees every change
 * an answer may depend on first. Each account event carries the account's projection after the
 * batch; the main thread stores and relays it and never asks for a view. The projections of
 * watched accounts that moved with prices, or whose robot status changed, go out as
 * AccountChanged every `mirrorMs`, and before `advance` and `settled` are answered.
 */
export class RobotHost {
  private drivenNow: number;
  private pending: PendingChange[] = [];
  /** Accounts changed by a request, whose projection is compared with the last one sent. */
  private readonly touched = new Set<string>();
  private flushScheduled = false;
  private seq = 0;
  /** Accounts whose price moves are pushed (the main thread reads them or a browser listens). */
  private readonly watched = new Set<string>();
  /** The mark (account-projection's projectionMark) of each account's projection last sent. */
  private readonly sent = new Map<string, string>();
  private mirrorTimer: NodeJS.Timeout | undefined;
  private core: RobotCore | undefined;
  private stopping: Promise<void> | undefined;
  /** Account leases (decision 092): the keeper, and the run of the core being replaced. */
  private keeper: LeaseKeeping | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  private switching: Promise<void> | undefined;
  private leaseRounding = false;
  /** The held accounts changed since the run started: it is to be replaced. */
  private heldMoved = false;
  private switchLoop = false;
  /** Accounts over this process's share, to release once the run without them has started. */
  private readonly surplus = new Set<string>();
  private coreOptions!: RobotCoreOptions;
  private db!: Db;
  /** The linked cTrader accounts the main thread sent last (decision 096). */
  private grants: readonly CTraderGrant[] = [];
  /** What /metrics reads (decision 150). */
  private readonly stats = new RobotStatsCounter();

  private constructor(
    private readonly port: HostPort,
    private readonly options: RobotHostOptions,
    private readonly extras: RobotHostExtras,
  ) {
    this.drivenNow = options.clock.kind === 'driven' ? options.clock.now : 0;
  }

  /** Starts the robot and tells the main thread it is ready, with every account's projection. */
  static async start(
    port: HostPort,
    options: RobotHostOptions,
    db: Db,
    extras: RobotHostExtras = {},
  ): Promise<RobotHost> {
    const host = new RobotHost(port, options, extras);
    const { clock } = options;
    const now =
      clock.kind === 'wall'
        ? () => clock.origin + (Date.now() - clock.wallOrigin) * clock.speed
        : () => host.drivenNow;
    host.db = db;
    host.coreOptions = {
      db,
      now,
      marketTickMs: options.marketTickMs,
      marketSeed: options.marketSeed,
      ...(options.testOnlyCrashAt ? { testOnlyCrashAt: options.testOnlyCrashAt } : {}),
      autoAdvance: options.autoAdvance,
      quoteSaveMs: options.quoteSaveMs,
      warmUpMs: options.warmUpMs,
      ...(options.builtInMarket ? { builtInMarket: options.builtInMarket } : {}),
      ...(extras.strategy
        ? { strategy: extras.strategy }
        : options.testOnlyStrategy
          ? { strategy: testOnlyStrategy(options.testOnlyStrategy) }
          : {}),
      onError: (error, what) => {
        port.postMessage({
          type: 'failure',
          what,
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      },
      onInfo: (fields, message) => {
        port.postMessage({ type: 'info', message, fields });
      },
      onTickDone: (lagMs) => {
        host.stats.tick(lagMs);
      },
      onClosureStored: (accountId) => {
        host.queue({ type: 'ClosureStored', accountId });
      },
      ...(options.ctrader
        ? {
            ctrader: {
              connection: options.ctrader,
              // Each linked account's own strategy: the model learns from that broker's prices
              // alone, never from simulated history (decision 096).
              strategy: (costs): Strategy =>
                extras.strategy ??
                (options.testOnlyStrategy
                  ? testOnlyStrategy(options.testOnlyStrategy)
                  : new SignalModel({ costs })),
              ...(options.ctrader.retryFirstMs === undefined
                ? {}
                : { retryFirstMs: options.ctrader.retryFirstMs }),
              onBrokerStatus: (accountId, status) => {
                host.touched.add(accountId);
                host.queue({ type: 'BrokerStatus', accountId, status });
              },
              onWarmedUp: (accountId) => {
                host.touched.add(accountId);
                host.queue({ type: 'ModelWarmedUp', accountId });
              },
            },
          }
        : {}),
    };
    if (options.leases) {
      const log: LeaseLog = (message, accountIds, level) => {
        port.postMessage({ type: 'leases', message, accountIds, ...(level ? { level } : {}) });
      };
      const link = extras.leaseLink;
      host.keeper =
        link?.kind === 'postgres'
          ? await ThreadedLeaseKeeper.start(link, options.leases, log)
          : new LeaseKeeper(db, options.leases, log);
      await host.keeper.round();
    }
    host.attach(await host.startCore());
    if (options.leases) {
      host.leaseTimer = setInterval(() => {
        // A round still waiting on the database: the leases' own clock goes on regardless.
        if (host.leaseRounding) host.expireWhileWaiting();
        else void host.leaseRound();
      }, options.leases.renewMs);
    }
    if (options.mirrorMs > 0) {
      host.mirrorTimer = setInterval(() => {
        host.pushMoved();
      }, options.mirrorMs);
      host.mirrorTimer.unref();
    }
    port.on('message', (message) => {
      host.receive(message);
    });
    const core = host.core;
    if (!core) throw new Error('the robot did not start');
    const projections: AccountProjection[] = [];
    for (const accountId of core.accountIds()) {
      const projection = core.projection(accountId);
      if (!projection) continue;
      projections.push(projection);
      host.sent.set(accountId, core.projectionMark(accountId));
    }
    port.postMessage({ type: 'ready', projections, builtInMarket: core.builtInMarket });
    return host;
  }

  /** A run of the core: every account, or (leases) the accounts held now, with their tokens. */
  private async startCore(strategy?: Strategy): Promise<RobotCore> {
    const keeper = this.keeper;
    const base = this.coreOptions.ctrader
      ? { ...this.coreOptions, ctrader: { ...this.coreOptions.ctrader, grants: this.grants } }
      : this.coreOptions;
    const options = strategy ? { ...base, strategy } : base;
    if (!keeper) return RobotCore.start(options);
    const post = (message: string, accountIds: readonly string[]) => {
      this.port.postMessage({ type: 'leases', message, accountIds });
    };
    const tokens = new Map<string, number>();
    for (const accountId of keeper.heldAccounts()) {
      const token = keeper.tokenOf(accountId);
      if (token !== undefined) tokens.set(accountId, token);
    }
    const fence = fenceOf(
      keeper.options.owner,
      tokens,
      (accountId) =>
        keeper.tokenOf(accountId) === tokens.get(accountId) && keeper.mayTrade(accountId),
      (what, count) => {
        this.stats.fenced(what, count);
        // The accounts whose lease this run no longer holds: the line names them.
        const moved = [...tokens].filter(
          ([accountId, token]) => keeper.tokenOf(accountId) !== token,
        );
        post(
          `leases: ${String(count)} ${what} not written: a lease of this run has moved on`,
          moved.map(([accountId]) => accountId),
        );
      },
    );
    // Each run numbers its positions from a block no other run has (decision 092).
    const blocks = await this.db.execute(sql`select nextval('robot_position_blocks') as block`);
    const block = Number(rowsOf<{ block: string | number }>(blocks)[0]?.block ?? 0);
    post(`leases: run ${String(block)} trades ${String(tokens.size)} accounts`, []);
    return RobotCore.start({
      ...options,
      leases: {
        fence,
        firstPositionNumber: block * 1_000_000_000 + 1,
        heldBack: (accountId) => {
          post('leases: not sending orders for an account this process no longer holds', [
            accountId,
          ]);
        },
      },
    });
  }

  /** Relays a run's engine events to the main thread. */
  private attach(core: RobotCore): void {
    this.core = core;
    this.stats.listen(core.events, () => this.core === core);
    core.events.on('PositionOpened', (event) => {
      if (this.core === core) this.queue({ type: 'PositionOpened', trade: event.trade });
    });
    core.events.on('PositionClosed', (event) => {
      if (this.core === core) this.queue({ type: 'PositionClosed', trade: event.trade });
    });
    core.events.on('OrderRejected', (event) => {
      if (this.core !== core) return;
      const rejection = orderRejectionOf(
        {
          clientOrderId: event.clientOrderId,
          decidedAt: event.decidedAt,
          symbol: event.symbol,
          category: event.category,
          side: event.side,
          units: event.units,
          reason: event.reason,
          brokerCode: event.brokerCode ?? null,
        },
        core.catalogue,
      );
      this.queue({ type: 'OrderRejected', accountId: event.accountId, rejection });
    });
    core.events.on('TradingHalted', (event) => {
      if (this.core === core) this.queue({ type: 'TradingHalted', reason: event.reason });
    });
    core.events.on('TradingResumed', () => {
      if (this.core === core) this.queue({ type: 'TradingResumed' });
    });
  }

  /**
   * One round of the lease keeper (decision 092). When the accounts held change, the run of the
   * core is replaced: the old run stops (its writes land, or are refused by the fence), surplus
   * accounts are released, and a new run restores exactly the accounts held from the store and
   * reconciles their pending intents with the platform before its first tick. Otherwise the
   * held accounts' settings are read again (a change made through another process).
   */
  private async leaseRound(): Promise<void> {
    const keeper = this.keeper;
    if (!keeper || this.leaseRounding || this.stopping) return;
    this.leaseRounding = true;
    try {
      // Renewals never wait for a run being replaced: a slow restart must not cost the leases.
      const round = await keeper.round();
      this.stats.leases('claimed', round.gained.length);
      this.stats.leases('lost', round.lost.length);
      for (const accountId of round.surplus) this.surplus.add(accountId);
      if (round.gained.length + round.lost.length + round.surplus.length > 0 || !this.core) {
        this.heldMoved = true;
      }
      if (this.heldMoved && !this.switchLoop) void this.switchWhileMoved();
      else if (!this.heldMoved && this.core && !this.switchLoop) {
        await this.reloadSettings(this.core);
      }
    } catch (error) {
      this.fail('a round of account leases', error);
    } finally {
      this.leaseRounding = false;
    }
  }

  /**
   * While a round hangs (the database does not answer): accounts whose trading time ran out are
   * dropped and logged on the monotonic clock; the run is replaced once the round ends.
   */
  private expireWhileWaiting(): void {
    if (!this.keeper || this.stopping) return;
    const lost = this.keeper.expire();
    this.stats.leases('lost', lost.length);
    if (lost.length > 0) this.heldMoved = true;
  }

  /** Replaces the run until it matches the accounts held (they may move during a switch). */
  private async switchWhileMoved(): Promise<void> {
    this.switchLoop = true;
    try {
      while (this.heldMoved && !this.stopping) {
        this.heldMoved = false;
        const surplus = [...this.surplus];
        this.surplus.clear();
        await this.switchCore(surplus);
      }
    } catch (error) {
      this.heldMoved = true;
      this.fail('replacing the robot run for the accounts held', error);
    } finally {
      this.switchLoop = false;
    }
  }

  private fail(what: string, error: unknown): void {
    this.port.postMessage({
      type: 'failure',
      what,
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }

  private async switchCore(surplus: readonly string[]): Promise<void> {
    const keeper = this.keeper;
    if (!keeper || this.stopping) return;
    let switched!: () => void;
    this.switching = new Promise((resolve) => {
      switched = resolve;
    });
    const old = this.core;
    this.core = undefined;
    try {
      if (old) {
        this.flushChanges();
        await old.stop();
      }
      await keeper.release(surplus);
      this.stats.leases('released', surplus.length);
      const before = old?.accountIds() ?? [];
      const core = await this.startCore(old?.strategy);
      this.attach(core);
      const now = new Set(core.accountIds());
      const released = before.filter((accountId) => !now.has(accountId));
      for (const accountId of released) this.sent.delete(accountId);
      if (released.length > 0) this.port.postMessage({ type: 'released', accountIds: released });
      for (const accountId of now) {
        this.sent.delete(accountId);
        this.touched.add(accountId);
      }
      this.flushChanges();
    } finally {
      this.switching = undefined;
      switched();
    }
  }

  /** The held accounts' settings as stored now: a change made through another process. */
  private async reloadSettings(core: RobotCore): Promise<void> {
    for (const { accountId, settings } of await core.storedSettings()) {
      if (core.settingsChanged(accountId, settings)) {
        core.applySettings(accountId, settings);
        this.touched.add(accountId);
      }
    }
    this.flushChanges();
  }

  private receive(message: ClientMessage): void {
    if (message.op === 'watch' || message.op === 'unwatch') {
      for (const accountId of message.accountIds) {
        if (message.op === 'unwatch') {
          this.watched.delete(accountId);
          continue;
        }
        this.watched.add(accountId);
        // Pushed at once, even unchanged: the main thread waits for it.
        this.sent.delete(accountId);
        this.touched.add(accountId);
      }
      this.flushChanges();
      return;
    }
    if (this.options.clock.kind === 'driven') this.drivenNow = message.now;
    this.handle(message).then(
      (value) => {
        this.flushChanges();
        this.port.postMessage({ type: 'answer', id: message.id, value });
      },
      (error: unknown) => {
        this.flushChanges();
        this.port.postMessage({
          type: 'refusal',
          id: message.id,
          message: error instanceof Error ? error.message : String(error),
        });
      },
    );
  }

  private async handle(
    request: RobotRequest,
  ): Promise<RobotOperations[RobotRequest['op']]['answer']> {
    if (!this.core && this.switching) await this.switching;
    const core = this.core;
    if (!core || (this.stopping && request.op !== 'stop')) {
      throw new Error('the robot has stopped');
    }
    switch (request.op) {
      case 'openAccount':
        try {
          await core.openAccount(request.accountId, request.depositCents);
        } finally {
          this.touched.add(request.accountId);
        }
        return undefined;
      case 'deposit':
        try {
          await core.deposit(request.accountId, request.cents);
        } finally {
          this.touched.add(request.accountId);
        }
        return undefined;
      case 'applySettings':
        // With leases, the process holding the account reads the settings from the store.
        if (!core.trades(request.accountId)) return undefined;
        core.applySettings(request.accountId, request.settings);
        this.touched.add(request.accountId);
        return undefined;
      case 'closeAllPositions':
        this.touched.add(request.accountId);
        return core.closeAllPositions(request.accountId);
      case 'closePosition':
        this.touched.add(request.accountId);
        return core.closePosition(request.accountId, request.positionId);
      case 'settled':
        await core.settled();
        this.pushMoved();
        return undefined;
      case 'advance':
        core.advance();
        this.pushMoved();
        return undefined;
      case 'snapshot':
        return core.snapshot();
      case 'stats':
        return this.stats.read(core.accountIds().length, request.keepMax === true);
      case 'ctraderGrants': {
        this.grants = request.grants;
        const before = new Set(core.accountIds());
        for (const accountId of await core.syncCTrader(request.grants)) {
          this.sent.delete(accountId);
          this.touched.add(accountId);
        }
        const now = new Set(core.accountIds());
        const released = [...before].filter((accountId) => !now.has(accountId));
        for (const accountId of released) {
          this.sent.delete(accountId);
          this.touched.delete(accountId);
        }
        if (released.length > 0) this.port.postMessage({ type: 'released', accountIds: released });
        return undefined;
      }
      case 'stop':
        this.stopping ??= this.stop(core);
        await this.stopping;
        return undefined;
    }
  }

  private async stop(core: RobotCore): Promise<void> {
    clearInterval(this.mirrorTimer);
    clearInterval(this.leaseTimer);
    // A lease round or a run's replacement under way ends first: nothing is claimed after.
    while (this.leaseRounding || this.switchLoop) await new Promise((r) => setTimeout(r, 10));
    await (this.core ?? core).stop();
    // Leases go back at once (SIGTERM, shutdown): another process takes the accounts now.
    await this.keeper?.releaseAll().catch((error: unknown) => {
      this.port.postMessage({
        type: 'failure',
        what: 'releasing account leases',
        message: error instanceof Error ? error.message : String(error),
      });
    });
    await this.keeper?.close?.();
    await this.extras.onStopped?.();
    this.queue({ type: 'RobotStopped' });
  }

  private queue(change: PendingChange | { readonly type: 'RobotStopped' }): void {
    if (change.type === 'RobotStopped') {
      // The last event of this run: what is pending goes first.
      this.flushChanges();
      this.port.postMessage({
        type: 'events',
        events: [{ type: 'RobotStopped', seq: ++this.seq }],
      });
      return;
    }
    this.pending.push(change);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushChanges();
    });
  }

  /**
   * Sends what happened since the last batch: each account event with the account's projection
   * as it is now (built once per account and batch), then AccountChanged for the accounts a
   * request changed without an event, if their projection moved.
   */
  private flushChanges(): void {
    this.flushScheduled = false;
    const core = this.core;
    if (!core || (this.pending.length === 0 && this.touched.size === 0)) return;
    const projections = new Map<string, AccountProjection | undefined>();
    const projectionOf = (accountId: string) => {
      if (!projections.has(accountId)) {
        projections.set(accountId, core.projection(accountId));
        this.sent.set(accountId, core.projectionMark(accountId));
      }
      return projections.get(accountId);
    };
    const events: RobotEvent[] = [];
    for (const change of this.pending) {
      switch (change.type) {
        case 'PositionOpened':
        case 'PositionClosed': {
          const { trade } = change;
          const projection = projectionOf(trade.accountId);
          if (!projection) break;
          const row =
            (change.type === 'PositionOpened'
              ? projection.trades.find((open) => open.id === trade.positionId)
              : undefined) ??
            tradeRowOf(trade, core.catalogue, trade.currency ?? projection.currency);
          events.push({
            type: change.type,
            seq: ++this.seq,
            accountId: trade.accountId,
            trade: row,
            projection,
          });
          break;
        }
        case 'ClosureStored':
          events.push({ type: 'ClosureStored', seq: ++this.seq, accountId: change.accountId });
          break;
        case 'OrderRejected':
          events.push({
            type: 'OrderRejected',
            seq: ++this.seq,
            accountId: change.accountId,
            rejection: change.rejection,
          });
          break;
        case 'TradingHalted':
          events.push({ type: 'TradingHalted', seq: ++this.seq, reason: change.reason });
          break;
        case 'TradingResumed':
          events.push({ type: 'TradingResumed', seq: ++this.seq });
          break;
        case 'ModelWarmedUp':
          events.push({ type: 'ModelWarmedUp', seq: ++this.seq, accountId: change.accountId });
          break;
        case 'BrokerStatus':
          events.push({
            type: 'BrokerStatus',
            seq: ++this.seq,
            accountId: change.accountId,
            status: change.status,
          });
          break;
      }
    }
    this.pending = [];
    for (const accountId of this.touched) {
      if (projections.has(accountId)) continue;
      const sent = this.sent.get(accountId);
      if (sent !== undefined && sent === core.projectionMark(accountId)) continue;
      const projection = projectionOf(accountId);
      if (projection) {
        events.push({ type: 'AccountChanged', seq: ++this.seq, accountId, projection });
      }
    }
    this.touched.clear();
    if (events.length > 0) this.port.postMessage({ type: 'events', events });
  }

  /** AccountChanged for every watched account whose projection moved since it was last sent. */
  private pushMoved(): void {
    for (const accountId of this.watched) this.touched.add(accountId);
    this.flushChanges();
  }
}
