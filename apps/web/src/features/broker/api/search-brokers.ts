import { queryOptions } from '@tanstack/react-query';
import type { BrokerSearchRequest, BrokerSearchResponse } from '@tradebot/contract';
import { v1Paths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

/** POST broker-search: the built-in platform first, then the directory's entries that fit. */
export async function searchBrokers(
  answers: BrokerSearchRequest,
  signal?: AbortSignal,
): Promise<BrokerSearchResponse['data']> {
  const body = await apiRequest<BrokerSearchResponse>(`/api/v1${v1Paths.brokerSearch}`, {
    method: 'POST',
    body: answers,
    ...(signal ? { signal } : {}),
  });
  return body.data;
}

/**
 * The search as server state (TanStack Query, the web app's model of it): one cache entry per
 * set of answers, so a changed answer is a new search and going back to earlier answers shows
 * their result at once.
 */
export function brokerSearchQuery(answers: BrokerSearchRequest) {
  return queryOptions({
    queryKey: ['broker-search', answers] as const,
    queryFn: ({ signal }) => searchBrokers(answers, signal),
  });
}
