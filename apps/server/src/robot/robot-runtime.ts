import type {
  AccountState,
  AccountStatus,
  EventBus,
  InstrumentCatalogue,
  PaperBrokerState,
  RobotSettings,
  TradeRecord,
} from '@tradebot/robot';

/** An open operation with its live profit at the platform. */
export interface OpenPosition {
  readonly trade: TradeRecord;
  readonly unrealisedProfitCents: number;
}

/** An account as the dashboard shows it, read at one moment. */
export interface AccountView {
  readonly figures: AccountState;
  readonly status: AccountStatus;
  /** Newest first. */
  readonly open: readonly OpenPosition[];
}

/**
 * The robot as the rest of the server sees it (decisions 042 and 046). The robot itself runs in
 * a worker thread (`ROBOT_THREAD=worker`, the default) or in this thread (`inline`): the same
 * messages cross a MessagePort either way (`RobotClient` here, `RobotHost` there).
 *
 * Reads (`account`, `openPositions`, `accountStatus`) are served from views the robot pushes
 * for the accounts read lately, at most `ROBOT_MIRROR_MS` old and never older than the last
 * change of the account this thread heard of (an operation opened or closed, a call below); a
 * first read asks the robot. While the robot is down (its worker died and restarts) reads answer
 * `undefined` (status `TRADING_HALTED`), settings are kept for the new worker, and other changes
 * are refused with a 503 (`trading.robotUnavailable`).
 */
export interface RobotRuntime {
  readonly catalogue: InstrumentCatalogue;
  /** The engine's PositionOpened, PositionClosed, TradingHalted and TradingResumed events. */
  readonly events: EventBus;
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
  /** Why the account's robot is idle now (engine-side reasons), or null while it may trade. */
  accountStatus(accountId: string): Promise<AccountStatus>;
  /** Live figures; undefined for an unknown account or while the robot is down. */
  account(accountId: string): Promise<AccountState | undefined>;
  /** Open operations, newest first; undefined for an unknown account or while the robot is down. */
  openPositions(accountId: string): Promise<readonly OpenPosition[] | undefined>;
  /** The accounts with at least one open operation. */
  accountsWithOpenPositions(): Iterable<string>;
  /** Resolves once every order, report and write started so far has landed. */
  settled(): Promise<void>;
  /** Emits every market tick due by the robot's clock (tests, which turn the timers off). */
  advance(): Promise<void>;
  /** The platform's whole state (tests and diagnostics). */
  snapshot(): Promise<PaperBrokerState>;
  /** No more ticks, every write in flight lands, the last quotes are saved; then the thread ends. */
  stop(): Promise<void>;
}
