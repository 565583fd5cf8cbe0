import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { HistoryPeriod, TradingData } from '@tradebot/contract';
import { realtimeClosedCount } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';
import { liveTradingKey, receiveLive } from '../../../lib/live-trading';
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

/**
 * The live trading data (lib/live-trading.ts): the server's answer fills it,
 * and from then on real-time events replace its values (spec §4). Asked again each time the
 * dashboard mounts, so a return to it resyncs.
 */
export function useLiveTradingData() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: liveTradingKey,
    queryFn: async ({ signal }) => {
      const data = await getAllData({ period: 'all', limit: realtimeClosedCount }, signal);
      return receiveLive(queryClient, {
        account: data.account,
        trades: data.trades,
        closed: data.closed,
        robot: data.robot,
        accountKind: data.accountKind,
        prices: data.prices,
        accountCurrency: data.accountCurrency,
      });
    },
    staleTime: 0,
    // A failed load is asked again every few seconds while a retry may help (issue 22).
    refetchInterval: (query) => liveDataRefetchInterval(query.state.error),
  });
}
