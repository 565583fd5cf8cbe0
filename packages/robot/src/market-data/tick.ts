/** A quote at the instrument's digits. Time is epoch milliseconds (UTC). */
export interface Tick {
  readonly symbol: string;
  readonly time: number;
  readonly bid: number;
  readonly ask: number;
}

export type TickListener = (tick: Tick) => void;
export type Unsubscribe = () => void;
