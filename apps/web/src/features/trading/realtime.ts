import { connectRealtime, type RealtimeConnection, type RealtimeOptions } from '../../lib/realtime';
import { storage } from '../../lib/storage';
import { queryClient } from '../../lib/query-client';
import { receiveLive } from '../../lib/live-trading';

export interface TradingRealtimeOptions {
  /** The dashboard's resync from get-all-data, after the channel dropped and came back. */
  onReconnect?: () => void;
  url?: RealtimeOptions['url'];
  transports?: RealtimeOptions['transports'];
}

/**
 * Subscribes the signed-in user's channel (spec §4: after login, once settings are loaded)
 * and merges what arrives into the live trading data (live-trading.ts), which replaces the
 * values it carries and ends the first load. Without a stored token there is nothing to subscribe: undefined.
 * Logout closes the connection (closeRealtimeConnection).
 */
export function startTradingRealtime(
  options: TradingRealtimeOptions = {},
): RealtimeConnection | undefined {
  const token = storage.get('token');
  if (!token) return undefined;
  return connectRealtime({
    ...options,
    token,
    onInfo: (info) => {
      receiveLive(queryClient, info);
    },
  });
}
