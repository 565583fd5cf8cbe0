import { useQuery } from '@tanstack/react-query';
import type { HistoryPeriod, TradingData } from '@tradebot/contract';
import { realtimeClosedCount } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';
import { useTradingStore } from '../../../stores/trading';
import { liveDataRefetchInterval } from '../live-data-error';

/** spec §7 GET /api/v1/get-all-data: account, open and closed operations, the robot's state. */
/** The query the contract's getAllDataQuerySchema reads (its input accepts strings too). */
export interface TradingDataQuery {
  period?: HistoryPeriod;
  limit?: number;
  before?: string;
}

export async function getAllData(
  query: TradingDataQuery = {},
  signal?: AbortSignal,
): Promise<TradingData> {
  const parameters = new URLSearchParams();
  if (query.period) parameters.set('period', query.period);
  if (query.limit !== undefined) parameters.set('limit', String(query.limit));
  if (query.before) parameters.set('before', query.before);
  const search = parameters.size > 0 ? `?${parameters.toString()}` : '';
  const body = await apiRequest<{ data: TradingData }>(`/api/v1/get-all-data${search}`, {
    ...(signal ? { signal } : {}),
  });
  return body.data;
}

export const liveTradingKey = ['trading', 'live'] as const;

/**
 * Fills the trading store from the server; from then on real-time events replace its values
 * (spec §4). Asked again each time the dashboard mounts, so a return to it resyncs.
 */
export function useLiveTradingData() {
  return useQuery({
    queryKey: liveTradingKey,
    queryFn: async ({ signal }) => {
      const data = await getAllData({ period: 'all', limit: realtimeClosedCount }, signal);
      useTradingStore.getState().receive({
        account: data.account,
        trades: data.trades,
        closed: data.closed,
        robot: data.robot,
      });
      return data;
    },
    staleTime: 0,
    // A failed load is asked again every few seconds while a retry may help (issue 22).
    refetchInterval: (query) => liveDataRefetchInterval(query.state.error),
  });
}
