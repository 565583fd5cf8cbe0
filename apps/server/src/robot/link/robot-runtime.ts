import { DomainError } from '../../domain/errors';
import type { BuiltInMarket } from '@tradebot/contract';
import type {
  AccountState,
  AccountStatus,
  InstrumentCatalogue,
  PaperBrokerState,
  RobotSettings,
} from '@tradebot/robot';
import type { AccountProjection, RobotEvent, RobotStats } from '../protocol/robot-protocol';

export type RobotEventListener = (event: RobotEvent) => void;

/**
 * The robot as the rest of the server sees it (decisions 042 and 046). The robot itself runs in
 * a worker thread (`ROBOT_THREAD=worker`, the default) or in this thread (`inline`): the same
 * messages cross a MessagePort either way (`RobotClient` here, `RobotHost` there).
 *
 * The robot owns every account's projection (decision 070): its events (`onEvent`) carry it,
 * this thread stores it, and reads (`projection`, `account`, `accountStatus`) are served from
 * what was stored, never by asking the robot for a view. A watched account's projection is at
 * most `ROBOT_MIRROR_MS` old, and never older than the last event of its account or the answer
 * to a call below that changed it. While the robot is down (its worker died and restarts) reads answer
 * `undefined` (status `TRADING_HALTED`), settings are kept for the new worker, and other changes
 * are refused with a 503 (`trading.robotUnavailable`).
 */
export interface RobotRuntime {
  readonly catalogue: InstrumentCatalogue;
  /** The robot's events (robot-protocol's RobotEvent), in order; returns the unsubscribe. */
  onEvent(listener: RobotEventListener): () => void;
  /** The robot's time, epoch ms. */
  now(): number;
  /** False while the robot is down (its worker died and restarts) or stopped. */
  running(): boolean;
  /** Whether the user has an account at the built-in platform. */
  hasAccount(accountId: string): boolean;
  /** Opens the user's account at the built-in platform with a first deposit, once; durably. */
  openAccount(accountId: string, depositCents: number): Promise<void>;
  /** Adds cash to an open account; resolves once the deposit is durable. */
  deposit(accountId: string, cents: number): Promise<void>;
  /**
   * Resolves once applied: the next tick already routes by these settings. While the robot is
   * down they are applied when it is back.
   */
  applySettings(accountId: string, settings: RobotSettings): Promise<void>;
  /** The user's kill switch: closes every open operation at the platform. Returns how many. */
  closeAllPositions(accountId: string): Promise<number>;
  /**
   * The user closes one operation (decision 152): asks the platform to close that position at
   * the market (reason 'manual'). False when the account has no such position open.
   */
  closePosition(accountId: string, positionId: string): Promise<boolean>;
  /**
   * The account as the dashboard shows it; undefined for an unknown one or while the robot is
   * down. The account is watched from then on (for 60 s after its last read): its price moves
   * are pushed every `ROBOT_MIRROR_MS`. A first read waits for the robot to push it.
   */
  projection(accountId: string): Promise<AccountProjection | undefined>;
  /** Keeps an account watched without reading it (a browser listening to its updates). */
  watch(accountId: string): void;
  /** The accounts with at least one open operation, as last projected. */
  accountsWithOpenPositions(): Iterable<string>;
  /** Why the account's robot is idle now (engine-side reasons), or null while it may trade. */
  accountStatus(accountId: string): Promise<AccountStatus>;
  /** Live figures; undefined for an unknown account or while the robot is down. */
  account(accountId: string): Promise<AccountState | undefined>;
  /** Resolves once every order, report and write started so far has landed. */
  settled(): Promise<void>;
  /** Emits every market tick due by the robot's clock (tests, which turn the timers off). */
  advance(): Promise<void>;
  /** The platform's whole state (tests and diagnostics). */
  snapshot(): Promise<PaperBrokerState>;
  /** What the robot's thread counted since it started (/metrics, decision 150). */
  stats(options?: { readonly keepMax?: boolean }): Promise<RobotStats>;
  /**
   * Sends the robot the linked cTrader accounts as stored now (decision 096): resolves once the
   * runs of new ones started (or failed, logged) and those of unlinked ones stopped.
   */
  syncCTrader(): Promise<void>;
  /**
   * Why a linked broker account cannot trade there now (its connection is down, or its grant was
   * refused and the user must link again), or null (decision 096).
   */
  brokerStatus(accountId: string): 'BROKER_DISCONNECTED' | 'BROKER_RECONNECT_NEEDED' | null;
  /**
   * What the built-in platform's prices are (decision 140), as the robot said when it started;
   * undefined before it has.
   */
  builtInMarket(): BuiltInMarket | undefined;
  /** No more ticks, every write in flight lands, the last quotes are saved; then the thread ends. */
  stop(): Promise<void>;
}

/** The robot is down (its worker restarts) or absent: nothing changed, the user may retry. */
export class RobotUnavailable extends DomainError {
  constructor() {
    super('trading.robotUnavailable');
  }
}
