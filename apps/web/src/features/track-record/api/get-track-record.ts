import { useInfiniteQuery } from '@tanstack/react-query';
import type { TrackRecord } from '@tradebot/contract';
import { v1Paths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

/** How often the open page asks again: the robot keeps trading while it is read. */
const refreshMs = 15_000;

/** GET track-record: the summary, one page of operations (newest first) and the curve. */
export async function getTrackRecord(
  before: string | undefined,
  signal?: AbortSignal,
): Promise<TrackRecord> {
  // The server's page size (trackRecordPageSize.default).
  const query = before ? `?before=${encodeURIComponent(before)}` : '';
  const body = await apiRequest<{ data: TrackRecord }>(`/api/v1${v1Paths.trackRecord}${query}`, {
    // Public: no user's token goes with it.
    token: null,
    ...(signal ? { signal } : {}),
  });
  return body.data;
}

export const trackRecordKey = ['track-record'] as const;

/** The record, a page of operations at a time; the first page carries the figures. */
export function useTrackRecord() {
  return useInfiniteQuery({
    queryKey: trackRecordKey,
    queryFn: ({ pageParam, signal }) => getTrackRecord(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: refreshMs,
  });
}
