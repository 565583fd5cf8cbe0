import type { TradingState } from '../risk/risk-gate';

/** The engine-wide trading state, shared by the engine's parts; the facade halts and resumes. */
export interface EngineControl {
  state: TradingState;
}
