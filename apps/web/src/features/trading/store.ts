import { create } from 'zustand';

/** spec §3 Trading data. Row field types are "not shown"; the dashboard issue types them. */
export interface TradingAccount {
  balance: number;
  freeMargin: number;
  equity: number;
  earnings: number;
}
export type TradeRow = Record<string, unknown>;

export interface TradingSnapshot {
  account?: TradingAccount | null;
  trades?: TradeRow[];
  closed?: TradeRow[];
}

export interface TradingState {
  account: TradingAccount | null;
  trades: TradeRow[];
  closed: TradeRow[];
  /** True until the first data arrives, by the server call or a real-time message. */
  isFirstLoad: boolean;
  /** Replaces the values the snapshot carries (spec §4 Real-time updates). */
  receive: (snapshot: TradingSnapshot) => void;
  reset: () => void;
}

const empty = { account: null, trades: [], closed: [], isFirstLoad: true };

export function createTradingStore() {
  return create<TradingState>()((set) => ({
    ...empty,
    receive(snapshot) {
      set((state) => ({
        account: snapshot.account === undefined ? state.account : snapshot.account,
        trades: snapshot.trades ?? state.trades,
        closed: snapshot.closed ?? state.closed,
        isFirstLoad: false,
      }));
    },
    reset() {
      set(empty);
    },
  }));
}

export const useTradingStore = createTradingStore();
