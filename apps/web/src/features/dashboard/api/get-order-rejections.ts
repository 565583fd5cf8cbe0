import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import {
  orderRejectionsPageSize,
  v1Paths,
  type OrderRejectionsPage,
  type UntradableSymbolsView,
} from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';
import { orderRejectionsKey } from '../../../lib/live-trading';

/** GET /api/v1/order-rejections: one page of the account's refused orders, newest first. */
export async function getOrderRejections(
  before: string | undefined,
  signal?: AbortSignal,
): Promise<OrderRejectionsPage> {
  const query = new URLSearchParams({ limit: String(orderRejectionsPageSize.default) });
  if (before) query.set('before', before);
  const body = await apiRequest<{ data: OrderRejectionsPage }>(
    `/api/v1${v1Paths.orderRejections}?${query.toString()}`,
    { ...(signal ? { signal } : {}) },
  );
  return body.data;
}

/** The account's refused orders (decision 101), a page at a time. */
export function useOrderRejections() {
  return useInfiniteQuery({
    queryKey: orderRejectionsKey,
    queryFn: ({ pageParam, signal }) => getOrderRejections(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** GET /api/v1/untradable-symbols: a linked broker account's symbols the robot does not trade. */
export async function getUntradableSymbols(signal?: AbortSignal): Promise<UntradableSymbolsView> {
  const body = await apiRequest<{ data: UntradableSymbolsView }>(
    `/api/v1${v1Paths.untradableSymbols}`,
    { ...(signal ? { signal } : {}) },
  );
  return body.data;
}

export function useUntradableSymbols(enabled: boolean) {
  return useQuery({
    queryKey: ['trading', 'untradable-symbols'] as const,
    queryFn: ({ signal }) => getUntradableSymbols(signal),
    enabled,
  });
}
