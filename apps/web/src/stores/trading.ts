import type { RealtimeInfo, RobotStatus, TradeRow, TradingAccount } from '@tradebot/contract';
import { create } from 'zustand';

export type { RobotStatus, TradeRow, TradingAccount };

/**
 * What get-all-data answers and a real-time event carries (spec §4 Real-time updates): each
 * field present replaces the stored one. `account` may be null before the account exists.
 */
export type TradingSnapshot = Omit<RealtimeInfo, 'account'> & {
  account?: TradingAccount | null;
};

/**
 * spec §3 Trading data. It lives with the shared stores because the real-time client writes
 * it, the session clears it and the dashboard reads it.
 */
export interface TradingState {
  account: TradingAccount | null;
  trades: TradeRow[];
  closed: TradeRow[];
  robot: RobotStatus | null;
  /** True until the first data arrives, by the server call or a real-time message. */
  isFirstLoad: boolean;
  /**
   * Counts the snapshots that brought `closed`: the history, paged by the server, refetches
   * when it moves.
   */
  closedRevision: number;
  /** Replaces the values the snapshot carries (spec §4 Real-time updates). */
  receive: (snapshot: TradingSnapshot) => void;
  reset: () => void;
}

const empty = {
  account: null,
  trades: [],
  closed: [],
  robot: null,
  isFirstLoad: true,
  closedRevision: 0,
};

export function createTradingStore() {
  return create<TradingState>()((set) => ({
    ...empty,
    receive(snapshot) {
      set((state) => ({
        account: snapshot.account === undefined ? state.account : snapshot.account,
        trades: snapshot.trades ?? state.trades,
        closed: snapshot.closed ?? state.closed,
        robot: snapshot.robot ?? state.robot,
        isFirstLoad: false,
        closedRevision: snapshot.closed ? state.closedRevision + 1 : state.closedRevision,
      }));
    },
    reset() {
      set(empty);
    },
  }));
}

export const useTradingStore = createTradingStore();
