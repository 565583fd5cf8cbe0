import type { InfiniteData } from '@tanstack/react-query';
import { historyPeriodMs, type HistoryPeriod, type TradeRow } from '@tradebot/contract';

export interface HistoryPage {
  rows: TradeRow[];
  /** Closed operations in the period, all pages together. */
  total: number;
  nextCursor: string | null;
}

/** When a period starts, counted back from now; null for `all`. */
export function periodStart(period: HistoryPeriod, now: number): number | null {
  return period === 'all' ? null : now - historyPeriodMs[period];
}

/** The rows of every loaded page, in order, each operation once. */
export function flattenPages(pages: readonly HistoryPage[]): TradeRow[] {
  const seen = new Set<string>();
  const rows: TradeRow[] = [];
  for (const page of pages) {
    for (const row of page.rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  }
  return rows;
}

function closedAt(row: TradeRow): number {
  return row.CloseTime ? Date.parse(row.CloseTime) : Number.NaN;
}

/**
 * The operations a real-time `closed` brought that the loaded history lacks: closed within
 * the period, not already listed. Newest first.
 */
export function newlyClosed(
  pages: readonly HistoryPage[],
  incoming: readonly TradeRow[],
  period: HistoryPeriod,
  now: number,
): TradeRow[] {
  const start = periodStart(period, now);
  const listed = new Set(pages.flatMap((page) => page.rows.map((row) => row.id)));
  return incoming
    .filter((row) => {
      const time = closedAt(row);
      return (
        row.status === 'closed' &&
        !Number.isNaN(time) &&
        (start === null || time >= start) &&
        !listed.has(row.id)
      );
    })
    .sort((a, b) => closedAt(b) - closedAt(a));
}

/** The history with the new rows on top of the first page and the total counting them. */
export function prependClosed(
  data: InfiniteData<HistoryPage, string | undefined>,
  rows: readonly TradeRow[],
): InfiniteData<HistoryPage, string | undefined> {
  const [first, ...rest] = data.pages;
  if (!first || rows.length === 0) return data;
  return {
    ...data,
    pages: [
      { ...first, rows: [...rows, ...first.rows], total: first.total + rows.length },
      ...rest.map((page) => ({ ...page, total: page.total + rows.length })),
    ],
  };
}

/** Whether the list has scrolled close enough to its end to ask for the next page. */
export function shouldLoadMore(
  lastVisibleIndex: number,
  loadedRows: number,
  hasNextPage: boolean,
  isFetching: boolean,
  threshold = 20,
): boolean {
  return hasNextPage && !isFetching && lastVisibleIndex >= loadedRows - threshold;
}
