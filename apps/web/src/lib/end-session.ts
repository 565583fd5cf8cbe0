import { useAuthStore } from '../stores/auth';
import { closeRealtimeConnection } from './realtime';

/**
 * spec §4 Session: logout clears the token, user config, settings flags, channel and trading
 * data. The trading data lives in the query cache, which clears itself when the token goes
 * (lib/query-client.ts).
 */
export function endSession(): void {
  closeRealtimeConnection();
  useAuthStore.getState().clear();
}
