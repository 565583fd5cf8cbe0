import { useAuthStore } from '../stores/auth';
import { useTradingStore } from '../stores/trading';
import { apiRequest } from '../lib/api-client';
import { closeRealtimeConnection } from '../lib/realtime';

/** spec §4 Session: logout clears the token, user config, settings flags, channel, trading data. */
export function endSession(): void {
  closeRealtimeConnection();
  useAuthStore.getState().clear();
  useTradingStore.getState().reset();
}

/** Tells the server (which revokes the token), then ends the session even if that failed. */
export async function logout(): Promise<void> {
  try {
    await apiRequest('/api/v1/logout', { method: 'POST' });
  } catch {
    // The local session ends regardless: a dead network must not keep anyone logged in.
  } finally {
    endSession();
  }
}
