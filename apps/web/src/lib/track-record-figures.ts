import { useQuery } from '@tanstack/react-query';
import type { TrackRecord } from '@tradebot/contract';
import { v1Paths } from '@tradebot/contract/constants';
import { apiRequest } from './api-client';

/** How often the figures are asked again while those on recorded quotes are being computed. */
const computingRefreshMs = 15_000;

/**
 * The public track record's figures alone (one operation in the page): the home page's two
 * markets (decision 142). Asked again while the figures on recorded quotes are computed.
 */
export function useTrackRecordFigures() {
  return useQuery({
    queryKey: ['track-record', 'figures'],
    queryFn: async ({ signal }) => {
      const body = await apiRequest<{ data: TrackRecord }>(
        `/api/v1${v1Paths.trackRecord}?limit=1`,
        { token: null, signal },
      );
      return body.data;
    },
    refetchInterval: (query) =>
      query.state.data?.realQuotes.status === 'computing' ? computingRefreshMs : false,
  });
}
