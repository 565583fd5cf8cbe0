import { useInfiniteQuery } from '@tanstack/react-query';
import { historyPageSize, type HistoryPeriod } from '@tradebot/contract';
import type { HistoryPage } from '../history-pages';
import { getAllData } from './get-all-data';

/** One page of the closed history (get-all-data's `closed`, paged by `before`). */
export async function getClosedHistoryPage(
  period: HistoryPeriod,
  before: string | undefined,
  signal?: AbortSignal,
): Promise<HistoryPage> {
  const data = await getAllData(
    { period, limit: historyPageSize.default, ...(before ? { before } : {}) },
    signal,
  );
  return {
    rows: data.closed,
    total: data.closedPage.total,
    nextCursor: data.closedPage.nextCursor,
  };
}

export const closedHistoryKey = (period?: HistoryPeriod) =>
  period ? (['trading', 'closed', period] as const) : (['trading', 'closed'] as const);

/** The closed operations of a period, newest first, a page at a time. */
export function useClosedHistory(period: HistoryPeriod) {
  return useInfiniteQuery({
    queryKey: closedHistoryKey(period),
    queryFn: ({ pageParam, signal }) => getClosedHistoryPage(period, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
