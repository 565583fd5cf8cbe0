// The trading engine (ARCHITECTURE.md, "A trade, end to end"). Pure domain code: time,
// randomness, prices, brokers, persistence and events reach it through the ports below.

// Ports and their in-memory or embedded adapters.
export type { Clock } from './time/clock';
export { ManualClock } from './time/clock';
export { backoffDelay, type Backoff } from './time/backoff';
export type { RandomSource } from './random/random-source';
export { createSeededRandom, deriveSeed, GaussianSampler } from './random/random-source';
export type { MarketDataFeed, SteppedFeed } from './market-data/market-data-feed';
export type { QuoteSeries, QuoteFolder } from './market-data/recorded-quotes';
export { QuoteFileError, readQuoteFolder } from './market-data/recorded-quotes';
export { LoopedQuoteFeed } from './market-data/looped-quote-feed';
export { recordedCatalogue } from './backtest/run-backtest';
export { TickDispatcher } from './market-data/market-data-feed';
export type { Tick, TickListener, Unsubscribe } from './market-data/tick';
export type {
  JumpOptions,
  MarketSimulatorOptions,
  RegimeOptions,
} from './market-data/market-simulator';
export { MarketSimulator, defaultJumps, defaultRegimes } from './market-data/market-simulator';
export type {
  AccountFigures,
  AccountState,
  BrokerAdapter,
  BrokerRejectReason,
  CloseReason,
  ExecutionReport,
  OpenPositionView,
  OrderFilledReport,
  OrderQueryResult,
  OrderRejectedReport,
  OrderRequest,
  PositionClosedReport,
  Side,
} from './broker/broker-adapter';
export { accountCurrency } from './broker/broker-adapter';
export type {
  ExecutionScheduler,
  PaperAccountState,
  PaperBrokerOptions,
  PaperBrokerState,
  PaperOrderRecord,
} from './broker/paper/paper-broker';
export type { PlatformEntry, PlatformJournal } from './broker/paper/platform-journal';
export { foldPlatformEntries } from './broker/paper/platform-journal';
export {
  PaperBroker,
  exitPrice,
  immediateExecution,
  marginCloseOutLevel,
} from './broker/paper/paper-broker';
export type {
  DayStartRecord,
  ExecutionStore,
  ExecutionStoreSnapshot,
  TradeClosure,
} from './execution/execution-store';
export { InMemoryExecutionStore } from './execution/execution-store';
export type {
  IntentStatus,
  OrderIntent,
  SignalDecision,
  TradeRecord,
} from './execution/trade-record';
export { decidedIntent, orderRequestOf, plainIntent } from './execution/trade-record';
export type {
  AccountRegistration,
  AccountSettingsSource,
  RobotSettings,
} from './settings/robot-settings';
export {
  InMemoryAccountSettingsSource,
  defaultRobotSettings,
  enabledCategories,
  isCategoryEnabled,
} from './settings/robot-settings';
export type {
  EngineEvent,
  EngineEventOf,
  EngineEventType,
  EventSink,
} from './events/engine-events';
export { CountingEventSink, EventBus, RecordingEventSink } from './events/engine-events';

// Instruments.
export type { Instrument, LeverageClass } from './instruments/instrument';
export { esmaRetailLeverage, roundToDigits } from './instruments/instrument';
export { InstrumentCatalogue, buildCatalogue, currencyName } from './instruments/catalogue';
export type { TradingSchedule, WeeklySession } from './instruments/trading-hours';
export {
  isMarketOpen,
  latestWeekdayAt,
  sessionPosition,
  timeZoneOffsetMs,
} from './instruments/trading-hours';

// Strategy, risk and the engine.
export type { Signal, Strategy } from './strategy/strategy';
export type { SignalModelOptions, TradingCosts } from './strategy/signal-model';
export { SignalModel, defaultSignalModelOptions } from './strategy/signal-model';
export type { ForecastReport } from './strategy/forecast-metrics';
export { FixedSignalStrategy } from './strategy/fixed-signal-strategy';
export type { TestOnlyStrategyName } from './strategy/test-only-strategy';
export {
  TestOnlyStrategy,
  testOnlyStrategies,
  testOnlyStrategy,
} from './strategy/test-only-strategy';
export type { WarmUpOptions, WarmUpResult } from './strategy/warm-up';
export { learnFromFeed, warmUpStrategy } from './strategy/warm-up';
export { WarmingStrategy } from './strategy/warming-strategy';
// The risk gate itself (RiskGate) is the engine's: its vocabulary is public (decision 099).
export type { DenialReason, RiskDecision, RiskStanding, TradingState } from './risk/risk-gate';
export { denialReasons, exposureCapSlack } from './risk/risk-gate';
export type { RiskLevel, RiskProfile } from './risk/risk-profile';
export { exposureCap, riskLevels, riskProfile } from './risk/risk-profile';
export type { TradeGeometry } from './risk/trade-geometry';
export { stopLossMultiple, tradeGeometry } from './risk/trade-geometry';
export type {
  AccountStatus,
  EngineIdleReason,
  TradingEngineDependencies,
} from './engine/trading-engine';
export { TradingEngine, engineIdleReasons } from './engine/trading-engine';
export type {
  PaperTradingOptions,
  PaperTradingSystem,
  WarmUpChoice,
} from './engine/paper-trading-system';
export {
  defaultWarmUpHistoryMs,
  startPaperTrading,
  tradeOnFeed,
} from './engine/paper-trading-system';

// Money and the contract edge.
export type { Cents } from './money/minor-units';
export { centsToDollars, dollarsToCents, dollarsToCentsRoundedUp } from './money/minor-units';
export { CurrencyConverter } from './money/currency-converter';
export type { AccountSummary, TradeRow } from './contract-edge/dashboard-rows';
export { sideToCmd, toAccountSummary, toTradeRow } from './contract-edge/dashboard-rows';

// Simulation.
export type { SimulationOptions, SimulationResult } from './simulation/run-simulation';
export { runSimulation } from './simulation/run-simulation';
export type { OperationLine } from './simulation/operation-line';
export { toOperationLine } from './simulation/operation-line';
export type { SimulationSummary } from './simulation/simulation-summary';
export { formatSummary, summarise } from './simulation/simulation-summary';

// Backtests on recorded quotes (decisions 125 and 142): the code is `@tradebot/robot/backtest`,
// so that what imports this index (the server's bundle) never loads the zip reader.
export type { BacktestOptions, BacktestResult } from './backtest/run-backtest';
export type { BacktestFigures } from './backtest/backtest-figures';
export type { Cadence } from './market-data/recorded-quote-feed';
// The robot on a broker's recorded ticks (decision 144).
export {
  backtestQuoteSeries,
  backtestTicks,
  ticksToSeries,
  type TickBacktestSummary,
} from './backtest/tick-backtest';
