import type { BuiltInMarket, OrderRejection, TradeRow, TradingAccount } from '@tradebot/contract';
import type {
  AccountState,
  AccountStatus,
  PaperBrokerState,
  RobotSettings,
  TestOnlyStrategyName,
} from '@tradebot/robot';
import type { DatabaseLink } from '../../db/database';
import type { CTraderGrant } from '../../domain/ctrader-grant';

/**
 * The messages between the robot's facade in the main thread (`RobotClient`, robot/link/) and the
 * thread that runs the robot (`RobotHost`, robot/worker/): plain data only, so that they cross a
 * MessagePort (decision 046). This module is all the two sides share (decision 165): neither
 * imports the other, and what both name (the options' types below) is declared here.
 */

/**
 * Which market the built-in platform runs on (decision 140), as the configuration says:
 * MARKET_SOURCE=simulator (the default) or recorded, with MARKET_QUOTES_DIR and its name.
 */
export type BuiltInMarketChoice =
  | { readonly kind: 'simulator' }
  | { readonly kind: 'recorded'; readonly dir: string; readonly name?: string };

/**
 * Tests only (ROBOT_TEST_ONLY_CRASH_AT, decision 092 amended): the points of an order's life
 * where a robot process may be made to kill itself with SIGKILL, so that the next owner's
 * reconciliation is proven exactly there (issue 21, proofs 2 and 3). Refused unless
 * NODE_ENV=test, in the configuration and again in the worker (test-only-crash.ts).
 */
export const testOnlyCrashPoints = [
  /** An order intent is stored, not yet sent to the platform (proof 3). */
  'intent-stored',
  /** The platform has recorded a fill, the robot has not stored the operation (proof 2). */
  'platform-accepted',
] as const;
export type TestOnlyCrashPoint = (typeof testOnlyCrashPoints)[number];

/**
 * How a lease keeper's line is logged: `warn` when an operator must act (the database is out of
 * reach), `info` for the rest (claims, releases, accounts handed over).
 */
export type LeaseLogLevel = 'info' | 'warn';

/** The robot's time: the wall clock (sped up by MARKET_SPEED), or moved by the main thread. */
export type RobotClockSpec =
  | {
      readonly kind: 'wall';
      /** The robot's time when the wall clock read `wallOrigin`. */
      readonly origin: number;
      readonly wallOrigin: number;
      readonly speed: number;
    }
  /** Tests: each request carries the main thread's time, and the robot's clock takes it. */
  | { readonly kind: 'driven'; readonly now: number };

export interface RobotHostOptions {
  readonly clock: RobotClockSpec;
  readonly marketTickMs: number;
  readonly marketSeed: number;
  /** Advance the market on a timer every `marketTickMs` (tests send `advance`). */
  readonly autoAdvance: boolean;
  readonly quoteSaveMs: number;
  readonly warmUpMs: number;
  /** The built-in platform's market (decision 140): the simulator when absent. */
  readonly builtInMarket?: BuiltInMarketChoice;
  /** Tests only (ROBOT_TEST_ONLY_STRATEGY, decision 093): this strategy instead of the model. */
  readonly testOnlyStrategy?: TestOnlyStrategyName;
  /** Tests only (ROBOT_TEST_ONLY_CRASH_AT, decision 092 amended): SIGKILL at that point. */
  readonly testOnlyCrashAt?: TestOnlyCrashPoint;
  /**
   * How often the projections of watched accounts that moved with prices (or whose robot status
   * changed) are pushed as AccountChanged; 0 pushes them only with other events and before
   * answers (tests).
   */
  readonly mirrorMs: number;
  /** Account leases (decision 092): trade only the accounts held. Unset: every account. */
  readonly leases?: RobotLeaseOptions;
  /** Where linked cTrader accounts trade (decision 096); unset without the app's credentials. */
  readonly ctrader?: CTraderConnectionOptions;
}

/** The Open API host of this server's environment and the application's credentials. */
export interface CTraderConnectionOptions {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
  readonly clientId: string;
  readonly clientSecret: string;
  /** A start that failed is tried again after this, doubling (1 s by default). */
  readonly retryFirstMs?: number;
  /** Reconnection backoff (the client's defaults unless set; tests make them short). */
  readonly backoffInitialMs?: number;
  readonly backoffMaxMs?: number;
}

/**
 * A linked cTrader account as the robot trades it (decision 096), as the main thread's grant
 * source (repositories/ctrader-grants.repository.ts) opened and checked it.
 */
export type { CTraderGrant };

/** How the robot holds accounts by lease (decision 092; lease-keeper.ts). */
export interface RobotLeaseOptions {
  /** This process, as the lease table and the status show it. */
  readonly owner: string;
  readonly leaseMs: number;
  /** How often leases are renewed and free accounts claimed. */
  readonly renewMs: number;
  /** How long before a lease's end the process stops sending orders for it. */
  readonly marginMs: number;
  /** The most accounts this process holds. */
  readonly capacity: number;
}

/** What the worker thread receives at start. */
export interface RobotWorkerData {
  readonly options: RobotHostOptions;
  readonly link: DatabaseLink;
}

/** Each request and what its answer carries. */
export interface RobotOperations {
  openAccount: { args: { accountId: string; depositCents: number }; answer: undefined };
  deposit: { args: { accountId: string; cents: number }; answer: undefined };
  applySettings: { args: { accountId: string; settings: RobotSettings }; answer: undefined };
  closeAllPositions: { args: { accountId: string }; answer: number };
  /** The user closes one operation (decision 152): false when it is not open there. */
  closePosition: { args: { accountId: string; positionId: string }; answer: boolean };
  settled: { args: Record<string, never>; answer: undefined };
  advance: { args: Record<string, never>; answer: undefined };
  snapshot: { args: Record<string, never>; answer: PaperBrokerState };
  stop: { args: Record<string, never>; answer: undefined };
  /** The linked cTrader accounts now: the robot runs exactly these (decision 096). */
  ctraderGrants: { args: { grants: readonly CTraderGrant[] }; answer: undefined };
  /** What the robot counted since its thread started (/metrics, decision 150). */
  stats: {
    /** `keepMax`: a read that leaves the greatest tick lag to /metrics (decision 160). */
    args: { readonly keepMax?: boolean };
    answer: RobotStats;
  };
}

/**
 * The robot thread's own counts since it started (decision 150): the main thread turns them into
 * Prometheus counters, adding what moved since the last read (a new thread starts from zero).
 */
export interface RobotStats {
  /** Random per thread start: counts of another run are not compared with these. */
  readonly run: string;
  readonly ordersSent: number;
  readonly ordersFilled: number;
  /** Orders the platform refused, by the refusal's reason. */
  readonly ordersRefused: Readonly<Record<string, number>>;
  /** How late the last market tick was done, in ms: its timer's delay plus its own work. */
  readonly tickLagMs: number;
  /** The greatest such lag since the last read. */
  readonly maxTickLagMs: number;
  /** Accounts this process holds by lease now (every account without leases). */
  readonly accountsHeld: number;
  /** Leases claimed, lost and released (decision 092). */
  readonly leaseMoves: Readonly<Record<'claimed' | 'lost' | 'released', number>>;
  /** Writes the fence kept out (a lease moved on), by what they were. */
  readonly fencedRefused: Readonly<Record<string, number>>;
}

export type RobotOperation = keyof RobotOperations;

export type RobotRequest = {
  [K in RobotOperation]: { readonly op: K; readonly id: number; readonly now: number } & Readonly<
    RobotOperations[K]['args']
  >;
}[RobotOperation];

/**
 * Notices without an answer. `watch`: push the account's projection at once (AccountChanged),
 * and from then on whenever it moves with prices; `unwatch`: no more of those (its events still
 * come). Events of every account always carry the projection.
 */
export type WatchNotice =
  | { readonly op: 'watch'; readonly accountIds: readonly string[] }
  | { readonly op: 'unwatch'; readonly accountIds: readonly string[] };

export type ClientMessage = RobotRequest | WatchNotice;

/**
 * An account as the dashboard shows it, built in the robot's thread where the trading happens
 * (decision 070): plain data in the contract's shapes, so that the main thread only stores it.
 */
export interface AccountProjection {
  readonly accountId: string;
  /** The platform's figures, in hundredths of `currency`. */
  readonly figures: AccountState;
  /**
   * The account's currency, ISO 4217: USD on the built-in platform, the broker's deposit
   * currency on a linked one (decision 097).
   */
  readonly currency: string;
  /** The same figures as the contract spells them (spec §3 account). */
  readonly account: TradingAccount;
  /** Why the account's robot is idle now (engine-side reasons), or null while it may trade. */
  readonly status: AccountStatus;
  /** Open operations, newest first, with their live profit. */
  readonly trades: readonly TradeRow[];
}

/** What every robot event carries: a sequence number, increasing within one robot's run. */
interface Sequenced {
  readonly seq: number;
}

/**
 * The robot's one stream of past-tense events (decision 070). Each account event carries the
 * account's projection after it, so that the main thread stores and relays it and never asks
 * the robot for a view: one crossing per change.
 */
export type RobotEvent =
  | (Sequenced & {
      readonly type: 'PositionOpened';
      readonly accountId: string;
      readonly trade: TradeRow;
      readonly projection: AccountProjection;
    })
  | (Sequenced & {
      readonly type: 'PositionClosed';
      readonly accountId: string;
      readonly trade: TradeRow;
      readonly projection: AccountProjection;
    })
  /** Figures, live profits or the robot's status changed without an operation opening or closing. */
  | (Sequenced & {
      readonly type: 'AccountChanged';
      readonly accountId: string;
      readonly projection: AccountProjection;
    })
  /**
   * The platform refused an order (decision 101): the refusal as the dashboard lists it, so a
   * browser watching shows it at once, before or without reading the list again.
   */
  | (Sequenced & {
      readonly type: 'OrderRejected';
      readonly accountId: string;
      readonly rejection: OrderRejection;
    })
  /** An operation's closure is in the database (the closed-page cache drops its page). */
  | (Sequenced & { readonly type: 'ClosureStored'; readonly accountId: string })
  | (Sequenced & { readonly type: 'TradingHalted'; readonly reason: string })
  | (Sequenced & { readonly type: 'TradingResumed' })
  /** The robot stopped cleanly: nothing more comes from this run. */
  | (Sequenced & { readonly type: 'RobotStopped' })
  /**
   * A linked broker account's model has learned the broker's history (decision 096): the account
   * no longer says WARMING_UP. Its AccountChanged, with the new status, follows in the batch.
   */
  | (Sequenced & { readonly type: 'ModelWarmedUp'; readonly accountId: string })
  /**
   * A linked broker account's connection or grant changed (decision 096): why the robot cannot
   * trade there now, or null once it can again. Sent for accounts with no projection too (a
   * grant refused at start).
   */
  | (Sequenced & {
      readonly type: 'BrokerStatus';
      readonly accountId: string;
      readonly status: 'BROKER_DISCONNECTED' | 'BROKER_RECONNECT_NEEDED' | null;
    });

export type RobotEventType = RobotEvent['type'];

export type HostMessage =
  | {
      readonly type: 'ready';
      /** Every account at the platform, rebuilt from the store at start. */
      readonly projections: readonly AccountProjection[];
      /** What the built-in platform's prices are (decision 140). */
      readonly builtInMarket: BuiltInMarket;
    }
  | { readonly type: 'answer'; readonly id: number; readonly value: unknown }
  | { readonly type: 'refusal'; readonly id: number; readonly message: string }
  /** What happened since the last message: sent before any answer, so an answer follows it. */
  | { readonly type: 'events'; readonly events: readonly RobotEvent[] }
  | { readonly type: 'failure'; readonly what: string; readonly message: string }
  /** An info-level line for the main thread's log (no token, no secret). */
  | {
      readonly type: 'info';
      readonly message: string;
      readonly fields: Readonly<Record<string, unknown>>;
    }
  /** Leases (decision 092): what the keeper did, for the log (warn: an operator must act). */
  | {
      readonly type: 'leases';
      readonly message: string;
      readonly accountIds: readonly string[];
      readonly level?: LeaseLogLevel;
    }
  /** Leases: this process no longer trades these accounts (their projections are dropped). */
  | { readonly type: 'released'; readonly accountIds: readonly string[] };
