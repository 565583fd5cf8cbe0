import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BrokerBacktest, BrokerBacktestResponse } from '@tradebot/contract';
import { brokerBacktestPaths } from '@tradebot/contract/constants';
import { apiRequest } from '../../lib/api-client';

/** The robot on the linked cTrader account's own prices (decision 144). */
export const brokerBacktestKey = ['ctrader', 'backtest'] as const;

export async function getBrokerBacktest(signal?: AbortSignal): Promise<BrokerBacktest> {
  return (
    await apiRequest<BrokerBacktestResponse>(`/api/v1${brokerBacktestPaths.backtest}`, {
      ...(signal ? { signal } : {}),
    })
  ).data;
}

export async function startBrokerBacktest(): Promise<BrokerBacktest> {
  return (
    await apiRequest<BrokerBacktestResponse>(`/api/v1${brokerBacktestPaths.backtest}`, {
      method: 'POST',
      body: {},
    })
  ).data;
}

/** How often the page asks while a run goes on. */
export const brokerBacktestPollMs = 1000;

/** The last run, asked again every second while it runs (the server writes its progress). */
export function useBrokerBacktest(enabled: boolean) {
  return useQuery({
    queryKey: brokerBacktestKey,
    queryFn: ({ signal }) => getBrokerBacktest(signal),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.state === 'running' ? brokerBacktestPollMs : false,
  });
}

export function useStartBrokerBacktest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: startBrokerBacktest,
    onSuccess: (data) => {
      client.setQueryData(brokerBacktestKey, data);
    },
  });
}
