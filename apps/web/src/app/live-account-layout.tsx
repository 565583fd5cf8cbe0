import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../lib/query-client';
import { useAuthStore } from '../stores/auth';

// Another user's cached account must never show: the cache goes with the session.
useAuthStore.subscribe((state, previous) => {
  if (state.token !== previous.token) queryClient.clear();
});

/**
 * The layout of the logged-in screens that read server state. Loaded lazily with them, so
 * TanStack Query stays out of the public pages' JavaScript (docs/decisions/044).
 */
export default function LiveAccountLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
