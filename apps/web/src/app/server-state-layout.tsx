import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../lib/query-client';

/**
 * Server state (TanStack Query) for the screens that read it and are not the live account:
 * payment and its return page, account settings, the e-mail change links, and linking (the
 * cTrader card and cTrader's return page). No real-time channel here; loaded lazily with them.
 * A screen that calls `useQuery` outside such a layout fails with "No QueryClient set"
 * (`router.test.ts` checks where they sit).
 */
export default function ServerStateLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
