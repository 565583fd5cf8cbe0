import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../lib/query-client';

/**
 * Server state (TanStack Query) for logged-in screens that are not the live account: payment
 * and its return page. No real-time channel here; loaded lazily with them.
 */
export default function ServerStateLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
