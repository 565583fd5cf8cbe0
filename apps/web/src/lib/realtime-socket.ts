import {
  realtimeEventName,
  realtimeEventSchema,
  realtimeInfoSchema,
  realtimePath,
  type RealtimeInfo,
} from '@tradebot/contract';
import { io, type Socket } from 'socket.io-client';

/**
 * The Socket.IO side of the real-time channel. Loaded on demand by `connectRealtime`:
 * only logged-in screens with live data need Socket.IO.
 */

/** `info` arrives as an object or as the same object in a JSON string (spec §4). */
export function parseRealtimeInfo(event: unknown): RealtimeInfo | undefined {
  const envelope = realtimeEventSchema.safeParse(event);
  if (!envelope.success) return undefined;
  let info: unknown = envelope.data.info;
  if (typeof info === 'string') {
    try {
      info = JSON.parse(info);
    } catch {
      return undefined;
    }
  }
  const parsed = realtimeInfoSchema.safeParse(info);
  return parsed.success ? parsed.data : undefined;
}

export interface SocketOptions {
  token: string;
  /** The server's origin; the page's own when absent. */
  url?: string;
  onInfo: (info: RealtimeInfo) => void;
  onReconnect?: () => void;
  /** socket.io-client transports; the default starts on long-polling and upgrades. */
  transports?: ('polling' | 'websocket')[];
}

export function openRealtimeSocket(options: SocketOptions): Socket {
  const socketOptions = {
    path: realtimePath,
    auth: { token: options.token },
    ...(options.transports ? { transports: options.transports } : {}),
  };
  const socket = options.url ? io(options.url, socketOptions) : io(socketOptions);
  // Anything after the first connection (or after a failed first try) may have missed
  // events: the owner resyncs from get-all-data.
  let mayHaveMissedEvents = false;
  socket.on('connect', () => {
    if (mayHaveMissedEvents) options.onReconnect?.();
    mayHaveMissedEvents = true;
  });
  socket.on('connect_error', () => {
    // spec §4: channel subscription errors are ignored. The transport retries by itself; a
    // refused token is not retried (the session is over and the API will say so).
    mayHaveMissedEvents = true;
  });
  socket.on(realtimeEventName, (event: unknown) => {
    const info = parseRealtimeInfo(event);
    if (info) options.onInfo(info);
  });
  return socket;
}
