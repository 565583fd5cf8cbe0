import { onStoredTokenRefused } from '../lib/api-client';
import { endSession } from '../lib/end-session';
import { useAuthStore } from '../stores/auth';

/**
 * One handler for a session the server ended while its private pages are on screen (issue 39
 * point 5): any query or action whose request carried the stored token and was refused (401)
 * ends the session here, and the current route's guards run again (`revalidate`), which say
 * "Tu sesión terminó" and go to the login, as a stored session refused at a page load does
 * (decision 073, guard-loader.ts). Before, every action failed with a generic error and the
 * pages stayed. A refusal while the settings load is the guards' own (stores/auth.ts).
 */
export function followRefusedSessions(revalidate: () => unknown): () => void {
  return onStoredTokenRefused((token) => {
    const auth = useAuthStore.getState();
    if (auth.token !== token || !auth.isSettingsLoaded) return;
    endSession();
    useAuthStore.setState({ sessionEnded: true });
    // After the failing action's own handling: the guards' message is the one left on screen.
    setTimeout(() => {
      void revalidate();
    }, 0);
  });
}
