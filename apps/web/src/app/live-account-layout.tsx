import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { startTradingRealtime } from '../features/trading/realtime';
import { queryClient } from '../lib/query-client';
import { useAuthStore } from '../stores/auth';

/** The token whose real-time channel is open; logout closes it (session.ts). */
let channelToken: string | null = null;

// A new session opens its own channel (the query cache is cleared in lib/query-client.ts).
useAuthStore.subscribe((state, previous) => {
  if (state.token !== previous.token) channelToken = null;
});

/**
 * Opens the user's private channel once per session (spec §4 Real-time updates). After a
 * drop, events may have been missed: the live data is asked again from get-all-data.
 */
function useTradingChannel(token: string | null) {
  useEffect(() => {
    if (!token || channelToken === token) return;
    channelToken = token;
    startTradingRealtime({
      onReconnect: () => {
        void queryClient.invalidateQueries({ queryKey: ['trading'] });
      },
    });
  }, [token]);
}

/**
 * The layout of the logged-in screens that read server state and live events. Loaded lazily
 * with them, so TanStack Query and Socket.IO stay out of the public pages' JavaScript
 * (docs/decisions/044).
 */
export default function LiveAccountLayout() {
  const token = useAuthStore((state) => state.token);
  useTradingChannel(token);
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
