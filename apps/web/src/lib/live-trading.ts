import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type {
  AccountKind,
  OrderRejection,
  OrderRejectionsPage,
  PriceSource,
  RealtimeInfo,
  RobotSettingsView,
  RobotStatus,
  TradeRow,
  TradingAccount,
} from '@tradebot/contract';

/**
 * What get-all-data answers and a real-time event carries (spec §4 Real-time updates): each
 * field present replaces the stored one. `account` may be null before the account exists.
 */
export type TradingSnapshot = Omit<RealtimeInfo, 'account'> & {
  account?: TradingAccount | null;
  /** Only get-all-data says it (decision 096): where the account lives. */
  accountKind?: AccountKind;
  /** Only get-all-data says it (decision 140): where the account's prices come from. */
  prices?: PriceSource | null;
};

/**
 * spec §3 Trading data, kept in one place: the query cache under `liveTradingKey`. The
 * dashboard's get-all-data fills it and real-time events merge into it; the first load is the
 * cache being empty ("until the first data arrives, from the server call or a real-time
 * message"), and it is cleared with the session (lib/query-client.ts).
 */
export interface LiveTrading {
  account: TradingAccount | null;
  trades: TradeRow[];
  closed: TradeRow[];
  robot: RobotStatus | null;
  /** Simulated, a broker's demo or a live account; null until get-all-data answered. */
  accountKind: AccountKind | null;
  /** The simulator, recorded quotes or the broker's prices; null until known. */
  prices: PriceSource | null;
  /**
   * The currency of every amount (ISO 4217, decision 097): USD on the simulated platform, the
   * broker account's own otherwise; null until known.
   */
  accountCurrency: string | null;
  /**
   * Counts the snapshots that brought `closed`: the history, paged by the server, refetches
   * when it moves.
   */
  closedRevision: number;
}

export const liveTradingKey = ['trading', 'live'] as const;

/** The values a snapshot carries replace the ones held; the others stay. */
export function mergeLive(
  previous: LiveTrading | undefined,
  snapshot: TradingSnapshot,
): LiveTrading {
  const held = previous ?? {
    account: null,
    trades: [],
    closed: [],
    robot: null,
    accountKind: null,
    prices: null,
    accountCurrency: null,
    closedRevision: 0,
  };
  return {
    account: snapshot.account === undefined ? held.account : snapshot.account,
    trades: snapshot.trades ?? held.trades,
    closed: snapshot.closed ?? held.closed,
    robot: snapshot.robot ?? held.robot,
    accountKind: snapshot.accountKind ?? held.accountKind,
    prices: snapshot.prices === undefined ? held.prices : snapshot.prices,
    accountCurrency:
      snapshot.accountCurrency === undefined ? held.accountCurrency : snapshot.accountCurrency,
    closedRevision: snapshot.closed ? held.closedRevision + 1 : held.closedRevision,
  };
}

/**
 * The robot's state right after its settings were saved (issue 39): on or off as the answer
 * says, at once, instead of the old state until the next real-time event. Switched on, it is no
 * longer idle for being off; a reason of its own (a closed market, no broker link) comes with
 * the get-all-data asked right after. Switched off, it is off.
 */
export function robotAfterSave(
  robot: RobotStatus | null,
  saved: RobotSettingsView,
): RobotStatus | null {
  if (!robot) return robot;
  if (!saved.bot_on) return { ...robot, bot_on: false, trading: false, idleReason: 'ROBOT_OFF' };
  if (robot.idleReason !== 'ROBOT_OFF') return { ...robot, bot_on: true };
  return { ...robot, bot_on: true, trading: true, idleReason: null };
}

/** Merges a snapshot (a real-time event, the server's answer) into the cached live data. */
export function receiveLive(client: QueryClient, snapshot: TradingSnapshot): LiveTrading {
  const merged = mergeLive(client.getQueryData<LiveTrading>(liveTradingKey), snapshot);
  client.setQueryData<LiveTrading>(liveTradingKey, merged);
  if (snapshot.rejected && snapshot.rejected.length > 0) {
    receiveRejections(client, snapshot.rejected);
  }
  return merged;
}

/** The refused orders' list (decision 101), paged newest first: GET order-rejections. */
export const orderRejectionsKey = ['trading', 'rejections'] as const;

export type OrderRejectionsData = InfiniteData<OrderRejectionsPage, string | undefined>;

/**
 * Puts refusals a real-time event brought on top of the loaded list, once each and newest
 * first; the pages below keep their rows and cursors, so "Ver más" goes on where it was. A list
 * not loaded yet is left alone: its first read will have them.
 */
export function withRejections(
  data: OrderRejectionsData,
  rejected: readonly OrderRejection[],
): OrderRejectionsData {
  const known = new Set(data.pages.flatMap((page) => page.rejections.map((row) => row.id)));
  const fresh = rejected
    .filter((row) => !known.has(row.id))
    .sort((a, b) => b.at.localeCompare(a.at) || (a.id < b.id ? 1 : -1));
  const [first, ...rest] = data.pages;
  if (fresh.length === 0 || first === undefined) return data;
  return { ...data, pages: [{ ...first, rejections: [...fresh, ...first.rejections] }, ...rest] };
}

function receiveRejections(client: QueryClient, rejected: readonly OrderRejection[]): void {
  client.setQueryData<OrderRejectionsData>(orderRejectionsKey, (data) =>
    data === undefined ? data : withRejections(data, rejected),
  );
}
