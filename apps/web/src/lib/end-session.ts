import { useAuthStore } from '../stores/auth';
import { useTradingStore } from '../stores/trading';
import { closeRealtimeConnection } from './realtime';

/** spec §4 Session: logout clears the token, user config, settings flags, channel, trading data. */
export function endSession(): void {
  closeRealtimeConnection();
  useAuthStore.getState().clear();
  useTradingStore.getState().reset();
}
