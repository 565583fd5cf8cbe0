import { useQuery } from '@tanstack/react-query';
import type { EquityPoint, HistoryPeriod } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/v1/equity-curve?period: the balance after each close, and the equity now. */
export async function getEquityCurve(
  period: HistoryPeriod,
  signal?: AbortSignal,
): Promise<EquityPoint[]> {
  const body = await apiRequest<{ data: { points: EquityPoint[] } }>(
    `/api/v1/equity-curve?period=${encodeURIComponent(period)}`,
    { ...(signal ? { signal } : {}) },
  );
  return body.data.points;
}

export const equityCurveKey = (period?: HistoryPeriod) =>
  period ? (['trading', 'equity', period] as const) : (['trading', 'equity'] as const);

export function useEquityCurve(period: HistoryPeriod) {
  return useQuery({
    queryKey: equityCurveKey(period),
    queryFn: ({ signal }) => getEquityCurve(period, signal),
  });
}
