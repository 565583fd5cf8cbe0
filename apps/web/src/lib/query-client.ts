import { QueryClient } from '@tanstack/react-query';
import { useAuthStore } from '../stores/auth';
import { ApiRequestError } from './api-client';

/**
 * Server state (TanStack Query). Lazy screens import this, never the shell, so the pages that
 * do not use it do not pay for it (docs/decisions/044; the public exceptions in 090).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Real-time events keep the live values fresh; a focus refetch would only race them.
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      // A refused or invalid request will not pass on a retry.
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiRequestError && error.status < 500),
    },
    mutations: { retry: false },
  },
});

// Another user's cached account must never show: the cache, the live trading data with it
// (spec §4: logout clears the trading data), goes with the session.
useAuthStore.subscribe((state, previous) => {
  if (state.token !== previous.token) queryClient.clear();
});
