import {
  backoffDelay,
  defaultSignalModelOptions,
  TradingEngine,
  type AccountState,
  type AccountStatus,
  type BrokerAdapter,
  type CloseReason,
  type EventSink,
  type ExecutionReport,
  type ExecutionStore,
  type InstrumentCatalogue,
  type MarketDataFeed,
  type OpenPositionView,
  type OrderQueryResult,
  type OrderRequest,
  type RobotSettings,
  type Strategy,
  type TradingCosts,
  type Tick,
  type TradeRecord,
  type Unsubscribe,
  WarmingStrategy,
} from '@tradebot/robot';
import { CTraderBroker, CTraderClient, CTraderTokenError } from '@tradebot/robot/ctrader';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { tradingPlatformLinks, type UntradableSymbols } from '../../db/schema';
import { ctraderProtocol } from '../../platforms/ctrader/ctrader-accounts';
import { DrizzleAccountSettingsSource } from './drizzle-account-settings-source';
import { DrizzleExecutionStore } from './drizzle-execution-store';
import type { CTraderConnectionOptions, CTraderGrant } from '../protocol/robot-protocol';
import type { WriteFence } from './write-fence';

export interface CTraderRunsOptions {
  readonly db: Db;
  readonly catalogue: InstrumentCatalogue;
  readonly connection: CTraderConnectionOptions;
  /** The engines' events: the same stream as the built-in platform's (the host relays it). */
  readonly events: EventSink;
  /**
   * A fresh strategy per account: never the built-in platform's, warmed on simulated history.
   * `costs` are the account's broker commission per unit (CTraderBroker.roundTurnCost).
   */
  readonly strategy: (costs: TradingCosts) => Strategy;
  readonly onError: (error: unknown, what: string) => void;
  /** An info-level log line (the run's symbols it does not trade; never a token). */
  readonly onInfo?: (fields: Record<string, unknown>, message: string) => void;
  readonly onClosureStored?: (accountId: string) => void;
  /** Leases (decision 092): only held accounts run, their writes fenced, their orders gated. */
  readonly fence?: WriteFence;
  readonly heldBack?: (accountId: string) => void;
  /** The connection's clock; a real broker's time is the wall clock. */
  readonly now?: () => number;
  /**
   * The account's broker status changed (connection lost or back, grant refused): null while it
   * trades, else why not. Told once per change.
   */
  readonly onBrokerStatus?: (accountId: string, status: BrokerTrouble | null) => void;
  /** A start that failed for a reason other than the grant is retried after this (doubling). */
  readonly retryFirstMs?: number;
  readonly retryMaxMs?: number;
  /** How much of the broker's recent tick history a new run's model learns from first. */
  readonly warmUpMs?: number;
  /** The account's model has learned the broker's history: it no longer says WARMING_UP. */
  readonly onWarmedUp?: (accountId: string) => void;
}

/**
 * The broker's history a run's model learns from before its first decision: two hours. A liquid
 * symbol quotes about once a second or more, so two hours give each model thousands of ticks, more
 * than its 300 warm-up outcomes need, from the market as it is now; the requests stay few (two
 * sides a symbol, a handful of pages each, at the API's 5 historical requests a second).
 */
export const defaultCTraderWarmUpMs = 2 * 60 * 60 * 1000;

/** How many untradable symbols of each kind the run's log line names (decision 101). */
const untradableLogSample = 50;

/** Why a linked account's robot cannot trade at its broker now (decision 096). */
export type BrokerTrouble = 'BROKER_DISCONNECTED' | 'BROKER_RECONNECT_NEEDED';

/** One linked cTrader account's robot: its own connection, adapter, store and engine. */
interface CTraderRun {
  readonly grant: CTraderGrant;
  readonly client: CTraderClient;
  readonly broker: CTraderBroker;
  readonly adapter: PrefixedBroker;
  readonly engine: TradingEngine;
  /** The account's model, learning from the broker's history before it trades. */
  readonly strategy: WarmingStrategy;
  readonly settings: DrizzleAccountSettingsSource;
  readonly unsubscribe: () => void;
}

/**
 * The robot on linked cTrader accounts (decision 096): one Open API connection, one
 * CTraderBroker and one TradingEngine per account, fed by the account's spot subscription, with
 * a strategy of its own that learns from that broker's prices only. Its intents and operations go
 * to the same tables as the built-in platform's, so the dashboard, the history and the real-time
 * channel show them alike. `sync` follows the grants the main thread sends (link, unlink, token
 * refresh, worker start).
 */
export class CTraderRuns {
  private readonly runs = new Map<string, CTraderRun>();
  /** Why a linked account has no run now (its connection or authorisation failed). */
  private readonly failures = new Map<string, unknown>();
  /** The broker status last told per account (see onBrokerStatus). */
  private readonly told = new Map<string, BrokerTrouble | null>();
  /** Starts to try again (connection failures), with their attempt number. */
  private readonly retries = new Map<string, { timer: NodeJS.Timeout; attempt: number }>();
  private grants: readonly CTraderGrant[] = [];
  private syncing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: CTraderRunsOptions) {}

  /** Whether the account is linked to cTrader and runs here. */
  has(accountId: string): boolean {
    return this.runs.has(accountId);
  }

  accountIds(): string[] {
    return [...this.runs.keys()];
  }

  /** Whether the account's last start failed (tests and diagnostics). */
  failure(accountId: string): unknown {
    return this.failures.get(accountId);
  }

  /** The account's adapter (tests, benchmarks). */
  broker(accountId: string): CTraderBroker | undefined {
    return this.runs.get(accountId)?.broker;
  }

  /**
   * Runs exactly the grants given: a new one starts (connect, authorise, symbols, reconcile,
   * subscribe), one gone or whose token changed stops (its writes land first). Resolves with the
   * accounts whose run started or stopped.
   */
  sync(grants: readonly CTraderGrant[]): Promise<string[]> {
    const result = this.syncing.then(() => this.apply(grants));
    this.syncing = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async apply(grants: readonly CTraderGrant[]): Promise<string[]> {
    if (this.stopped) return [];
    this.grants = grants;
    const fence = this.options.fence;
    const wanted = new Map(
      grants
        .filter((grant) => !fence || fence.tokens.has(grant.accountId))
        .map((grant) => [grant.accountId, grant]),
    );
    const moved: string[] = [];
    for (const [accountId, run] of [...this.runs]) {
      const grant = wanted.get(accountId);
      if (grant && sameGrant(grant, run.grant)) continue;
      this.runs.delete(accountId);
      await stopRun(run);
      moved.push(accountId);
    }
    for (const accountId of [...this.failures.keys(), ...this.told.keys()]) {
      if (wanted.has(accountId)) continue;
      this.failures.delete(accountId);
      this.told.delete(accountId);
      const retry = this.retries.get(accountId);
      if (retry) clearTimeout(retry.timer);
      this.retries.delete(accountId);
    }
    for (const [accountId, grant] of wanted) {
      if (this.runs.has(accountId)) continue;
      if (await this.tryStart(grant)) moved.push(accountId);
    }
    return moved;
  }

  /**
   * Starts the account's run. A refused grant waits for the user to link again (a new grant);
   * any other failure (the broker unreachable, a timeout) is tried again with backoff.
   */
  private async tryStart(grant: CTraderGrant): Promise<boolean> {
    const { accountId } = grant;
    try {
      const run = await this.start(grant);
      this.runs.set(accountId, run);
      this.failures.delete(accountId);
      this.retries.delete(accountId);
      this.tell(accountId, this.trouble(run));
      return true;
    } catch (error) {
      this.failures.set(accountId, error);
      this.options.onError(error, `starting the robot on cTrader account ${accountId}`);
      if (error instanceof CTraderTokenError) {
        this.tell(accountId, 'BROKER_RECONNECT_NEEDED');
        return false;
      }
      this.tell(accountId, 'BROKER_DISCONNECTED');
      const attempt = (this.retries.get(accountId)?.attempt ?? 0) + 1;
      const delay = backoffDelay(attempt - 1, {
        firstMs: this.options.retryFirstMs ?? 1000,
        capMs: this.options.retryMaxMs ?? 60_000,
      });
      const timer = setTimeout(() => {
        void this.sync(this.grants);
      }, delay);
      timer.unref();
      this.retries.set(accountId, { timer, attempt });
      return false;
    }
  }

  /** Why the run cannot trade at its broker now, or null. */
  private trouble(run: CTraderRun): BrokerTrouble | null {
    if (!run.broker.authorised(run.grant.accountId)) return 'BROKER_RECONNECT_NEEDED';
    if (run.client.state !== 'ready') return 'BROKER_DISCONNECTED';
    return null;
  }

  /** The broker status of an account linked here (running or not), or null while it trades. */
  brokerStatus(accountId: string): BrokerTrouble | null {
    const run = this.runs.get(accountId);
    if (run) return this.trouble(run);
    return this.told.get(accountId) ?? null;
  }

  private tell(accountId: string, status: BrokerTrouble | null): void {
    if (this.told.has(accountId) && this.told.get(accountId) === status) return;
    this.told.set(accountId, status);
    this.options.onBrokerStatus?.(accountId, status);
  }

  private async start(grant: CTraderGrant): Promise<CTraderRun> {
    const { options } = this;
    const { connection } = options;
    const client = new CTraderClient({
      host: connection.host,
      port: connection.port,
      tls: connection.tls,
      clientId: connection.clientId,
      clientSecret: connection.clientSecret,
      protocol: ctraderProtocol(),
      ...(connection.backoffInitialMs === undefined
        ? {}
        : { backoffInitialMs: connection.backoffInitialMs }),
      ...(connection.backoffMaxMs === undefined ? {} : { backoffMaxMs: connection.backoffMaxMs }),
    });
    const now = options.now ?? Date.now;
    const held = [grant.accountId];
    const store = new DrizzleExecutionStore(options.db, options.onClosureStored, {
      accounts: held,
      ...(options.fence ? { fence: options.fence } : {}),
    });
    try {
      await client.connect();
      const broker = new CTraderBroker({
        client,
        catalogue: options.catalogue,
        accounts: [
          {
            accountId: grant.accountId,
            ctidTraderAccountId: grant.ctidTraderAccountId,
            accessToken: grant.accessToken,
            historyFrom: await historyFrom(store, now()),
          },
        ],
        now,
        // A symbol whose dynamic leverage the broker would not give (decision 102): one line.
        warn: (message) => this.options.onInfo?.({ account: grant.accountId }, message),
      });
      await broker.start();
      await this.recordUntradable(grant, broker, now());
      const adapter = new PrefixedBroker(broker, `ct${String(grant.ctidTraderAccountId)}-`);
      if (options.fence) {
        gateOrders(adapter, store, options.fence, options.heldBack ?? (() => undefined));
      }
      const settings = new DrizzleAccountSettingsSource(options.db, held, 'ctrader');
      // The robot opens nothing while the broker cannot take it: disconnected, or the grant
      // refused (decision 096). An order of a signal from before a drop is never sent late.
      adapter.gate = () => {
        const run = this.runs.get(grant.accountId);
        return run ? this.trouble(run) : null;
      };
      // The model's break-even counts the broker's commission (decision 096 addendum).
      const costs: TradingCosts = (instrument, tick) =>
        broker.roundTurnCost(grant.accountId, instrument.symbol, (tick.bid + tick.ask) / 2);
      const strategy = new WarmingStrategy(options.strategy(costs), options.catalogue);
      const engine = await TradingEngine.start({
        catalogue: options.catalogue,
        feed: adapter,
        broker: adapter,
        store,
        settings,
        events: options.events,
        clock: { now },
        strategy,
        minimumEdge: defaultSignalModelOptions.minimumEdge,
        // The broker's own sessions and holidays, not our catalogue's (decision 096 addendum).
        marketOpen: (symbol, time) => broker.marketOpen(grant.accountId, symbol, time),
      });
      // Each change of the connection or the grant is told once (the dashboard, the notice).
      const check = () => {
        const run = this.runs.get(grant.accountId);
        if (run?.client === client) this.tell(grant.accountId, this.trouble(run));
      };
      const offState = client.onState(() => {
        queueMicrotask(check);
      });
      const offEvent = client.onEvent((message) => {
        if (message.name === 'ProtoOAAccountsTokenInvalidatedEvent') queueMicrotask(check);
      });
      const unsubscribe = () => {
        offState();
        offEvent();
      };
      this.warm(grant.accountId, client, broker, strategy, now());
      return { grant, client, broker, adapter, engine, strategy, settings, unsubscribe };
    } catch (error) {
      client.close();
      throw error;
    }
  }

  /**
   * The account's symbols the robot does not trade (decision 097: no instrument of ours, or no
   * conversion to the account's currency), as this run's adapter read them: stored on the link
   * for the dashboard (decision 101) and logged once. Only the account still linked is written: a
   * link to another account since then is that account's run's to fill.
   */
  private async recordUntradable(
    grant: CTraderGrant,
    broker: CTraderBroker,
    now: number,
  ): Promise<void> {
    const untradable: UntradableSymbols = {
      unmapped: [...broker.unmappedSymbols(grant.accountId)].sort(),
      unconvertible: [...broker.unconvertibleSymbols(grant.accountId)].sort(),
      readAt: new Date(now).toISOString(),
    };
    this.options.onInfo?.(
      {
        account: grant.accountId,
        ctidTraderAccountId: grant.ctidTraderAccountId,
        unmapped: untradable.unmapped.length,
        unconvertible: untradable.unconvertible.length,
        // A broker may list a thousand symbols: the log keeps a sample, the link has them all.
        unmappedSample: untradable.unmapped.slice(0, untradableLogSample),
        unconvertibleSample: untradable.unconvertible.slice(0, untradableLogSample),
      },
      'robot: cTrader account symbols the robot does not trade',
    );
    try {
      await this.options.db
        .update(tradingPlatformLinks)
        .set({ untradableSymbols: untradable })
        .where(
          and(
            eq(tradingPlatformLinks.userId, grant.accountId),
            eq(tradingPlatformLinks.platform, 'ctrader'),
            sql`(${tradingPlatformLinks.brokerAccount} ->> 'ctidTraderAccountId')::bigint = ${grant.ctidTraderAccountId}`,
          ),
        );
    } catch (error) {
      // The dashboard misses the list until the next run; trading does not depend on it.
      this.options.onError(error, `storing the untradable symbols of account ${grant.accountId}`);
    }
  }

  /**
   * The model learns from the broker's own ticks of the last warmUpMs, then from the live ones
   * held meanwhile (decision 096, amended). If the history cannot be read, it learns from live
   * ticks alone, as a cold start; nothing simulated ever takes its place.
   */
  private warm(
    accountId: string,
    client: CTraderClient,
    broker: CTraderBroker,
    strategy: WarmingStrategy,
    startedAt: number,
  ): void {
    const from = startedAt - (this.options.warmUpMs ?? defaultCTraderWarmUpMs);
    const learned = broker.recentTicks(accountId, from, startedAt).then(
      (ticks) => strategy.learn(ticks),
      (error: unknown) => {
        if (client.state !== 'closed') {
          this.options.onError(
            error,
            `reading the broker's price history for account ${accountId}`,
          );
        }
        return strategy.learn([]);
      },
    );
    learned.then(
      () => {
        // A run replaced meanwhile (a reconnection, a new grant) says its own end.
        const current = this.runs.get(accountId)?.strategy;
        if (current === undefined || current === strategy) this.options.onWarmedUp?.(accountId);
      },
      (error: unknown) => {
        this.options.onError(error, `learning the broker's price history for account ${accountId}`);
      },
    );
  }

  /** Whether the account's model is still learning from the broker's history (tests). */
  warming(accountId: string): boolean {
    return this.runs.get(accountId)?.strategy.warming ?? false;
  }

  account(accountId: string): AccountState | undefined {
    return this.runs.get(accountId)?.adapter.account(accountId);
  }

  accountStatus(accountId: string): AccountStatus {
    const run = this.runs.get(accountId);
    if (!run) return { idleReason: 'ROBOT_OFF' };
    const status = run.engine.accountStatus(accountId);
    // The user's own choices first (robot off, no category); then the broker.
    if (status.idleReason === 'ROBOT_OFF' || status.idleReason === 'NO_CATEGORY_ENABLED') {
      return status;
    }
    // Broker trouble: nothing opens whatever the forecasts say, so no category speaks.
    const trouble = this.trouble(run);
    if (trouble) return { idleReason: trouble };
    // Learning: its categories say how far (the warming strategy's outlook, decision 147).
    return run.strategy.warming ? { ...status, idleReason: 'WARMING_UP' } : status;
  }

  openTrades(accountId: string): readonly TradeRecord[] {
    return this.runs.get(accountId)?.engine.openTrades(accountId) ?? [];
  }

  openPositions(accountId: string): readonly OpenPositionView[] {
    return this.runs.get(accountId)?.adapter.openPositions(accountId) ?? [];
  }

  applySettings(accountId: string, settings: RobotSettings): void {
    this.runs.get(accountId)?.engine.applySettings(accountId, settings);
  }

  closeAllPositions(accountId: string): number {
    return this.runs.get(accountId)?.engine.closeAllPositions(accountId) ?? 0;
  }

  /** The user closes one operation at the broker (decision 152). */
  closePosition(accountId: string, positionId: string): boolean {
    return this.runs.get(accountId)?.engine.closePosition(accountId, positionId) ?? false;
  }

  /** The settings of the linked accounts as stored now. */
  async storedSettings(): Promise<Awaited<ReturnType<DrizzleAccountSettingsSource['loadAll']>>> {
    const all = [];
    for (const run of this.runs.values()) all.push(...(await run.settings.loadAll()));
    return all;
  }

  async settled(): Promise<void> {
    await this.syncing;
    for (const run of this.runs.values()) await run.engine.idle();
  }

  /** Every run stops: no more ticks, orders in flight land, the connections close. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const retry of this.retries.values()) clearTimeout(retry.timer);
    this.retries.clear();
    await this.syncing;
    for (const run of this.runs.values()) await stopRun(run);
    this.runs.clear();
  }
}

/**
 * Since when the broker's history is read when an account's run starts (a restart, a takeover, a
 * new grant): its oldest order still pending or operation still open in our records, either of
 * which may have filled or closed while no process listened; now when there is none.
 */
async function historyFrom(store: ExecutionStore, now: number): Promise<number> {
  const [pending, open] = await Promise.all([store.pendingIntents(), store.openTrades()]);
  return Math.min(
    now,
    ...pending.map((intent) => intent.decidedAt),
    ...open.map((trade) => trade.openedAt),
  );
}

function sameGrant(a: CTraderGrant, b: CTraderGrant): boolean {
  return a.ctidTraderAccountId === b.ctidTraderAccountId && a.accessToken === b.accessToken;
}

async function stopRun(run: CTraderRun): Promise<void> {
  run.unsubscribe();
  await run.engine.idle();
  run.engine.stop();
  await run.engine.idle();
  run.broker.stop();
  run.client.close();
}

/**
 * The adapter with its position ids in a namespace of their own (`ct<account>-<id>`): the
 * operations table keys positions by id, and a broker's numbers would meet the built-in
 * platform's.
 */
export class PrefixedBroker implements Required<BrokerAdapter>, MarketDataFeed {
  /** Why no order may leave now (the run's broker status), or null. */
  gate: () => string | null = () => null;
  private readonly listeners = new Set<(report: ExecutionReport) => void>();

  constructor(
    readonly inner: CTraderBroker,
    private readonly prefix: string,
  ) {}

  private outer(positionId: string): string {
    return this.prefix + positionId;
  }

  subscribe(listener: (tick: Tick) => void): Unsubscribe {
    return this.inner.subscribe(listener);
  }

  lastTick(symbol: string): Tick | undefined {
    return this.inner.lastTick(symbol);
  }

  submitOrder(order: OrderRequest): void {
    const trouble = this.gate();
    if (trouble === null) {
      this.inner.submitOrder(order);
      return;
    }
    const rejection: ExecutionReport = {
      kind: 'rejected',
      clientOrderId: order.clientOrderId,
      accountId: order.accountId,
      reason: trouble === 'BROKER_RECONNECT_NEEDED' ? 'NOT_AUTHORISED' : 'BROKER_REJECTED',
      brokerCode: trouble,
      time: Date.now(),
    };
    for (const listener of this.listeners) listener(rejection);
  }

  closePosition(accountId: string, positionId: string, reason: CloseReason): void {
    if (!positionId.startsWith(this.prefix)) return;
    this.inner.closePosition(accountId, positionId.slice(this.prefix.length), reason);
  }

  onReport(listener: (report: ExecutionReport) => void): Unsubscribe {
    this.listeners.add(listener);
    const off = this.inner.onReport((report) => {
      listener(this.outerReport(report));
    });
    return () => {
      this.listeners.delete(listener);
      off();
    };
  }

  private outerReport<R extends ExecutionReport>(report: R): R {
    return report.kind === 'rejected'
      ? report
      : { ...report, positionId: this.outer(report.positionId) };
  }

  account(accountId: string): AccountState | undefined {
    return this.inner.account(accountId);
  }

  accountFigures(accountId: string) {
    return this.inner.accountFigures(accountId);
  }

  quoteToAccount(accountId: string, symbol: string): number | undefined {
    return this.inner.quoteToAccount(accountId, symbol);
  }

  accountLeverage(accountId: string): number | undefined {
    return this.inner.accountLeverage(accountId);
  }

  symbolLeverage(accountId: string, symbol: string, notionalCents?: number): number | undefined {
    return this.inner.symbolLeverage(accountId, symbol, notionalCents);
  }

  openPositions(accountId: string): readonly OpenPositionView[] {
    return this.inner
      .openPositions(accountId)
      .map((position) => ({ ...position, positionId: this.outer(position.positionId) }));
  }

  async queryOrder(clientOrderId: string): Promise<OrderQueryResult> {
    const result = await this.inner.queryOrder(clientOrderId);
    if (result.status !== 'filled') return result;
    return {
      status: 'filled',
      fill: this.outerReport(result.fill),
      closed: result.closed && this.outerReport(result.closed),
    };
  }
}

/**
 * With leases, an order leaves only while the lease keeper lets the account trade and its intent
 * is in the database under this run's token (decision 092), as on the built-in platform.
 */
export function gateOrders(
  broker: Pick<BrokerAdapter, 'submitOrder'>,
  store: DrizzleExecutionStore,
  fence: WriteFence,
  heldBack: (accountId: string) => void,
): void {
  const submit = broker.submitOrder.bind(broker);
  const told = new Set<string>();
  broker.submitOrder = (order) => {
    const written = store.mayBeSent(order.clientOrderId);
    if (written && fence.mayTrade(order.accountId)) {
      submit(order);
      return;
    }
    if (told.has(order.accountId)) return;
    told.add(order.accountId);
    heldBack(order.accountId);
  };
}
