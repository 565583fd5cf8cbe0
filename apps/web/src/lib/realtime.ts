import type { RealtimeInfo } from '@tradebot/contract';

/**
 * The private real-time channel (spec §4 Real-time updates). This module is in every page's
 * shell, so it imports no runtime code: Socket.IO and the contract's schemas load with the
 * first connection (`./realtime-socket`). Logout (spec §4 Session) closes the connection
 * registered here with everything else.
 */
let closeConnection: (() => void) | null = null;

export function registerRealtimeConnection(close: () => void): void {
  closeConnection = close;
}

export function closeRealtimeConnection(): void {
  const close = closeConnection;
  closeConnection = null;
  close?.();
}

export interface RealtimeOptions {
  /** The session's bearer token. */
  token: string;
  /** A valid `info` from the user's channel; invalid ones are dropped. */
  onInfo: (info: RealtimeInfo) => void;
  /** The connection came back after a drop: events may have been missed. */
  onReconnect?: () => void;
  /** The server's origin; the page's own when absent (tests point it elsewhere). */
  url?: string;
  transports?: ('polling' | 'websocket')[];
}

export interface RealtimeConnection {
  close: () => void;
  /** Resolves once the socket is created (not necessarily connected); for tests. */
  loaded: Promise<void>;
}

/**
 * Opens the user's channel and registers it, so closeRealtimeConnection (logout) closes it;
 * a connection opened before is closed first. Connection errors are ignored (spec §4).
 */
export function connectRealtime(options: RealtimeOptions): RealtimeConnection {
  closeRealtimeConnection();
  let closed = false;
  let closeSocket: (() => void) | undefined;
  const close = () => {
    closed = true;
    closeSocket?.();
    if (closeConnection === close) closeConnection = null;
  };
  registerRealtimeConnection(close);
  const loaded = import('./realtime-socket').then(
    ({ openRealtimeSocket }) => {
      if (closed) return;
      const socket = openRealtimeSocket(options);
      closeSocket = () => {
        socket.close();
      };
    },
    () => {
      // spec §4: the channel failing (here, its code not loading) is ignored; the page still
      // shows what get-all-data returned.
      if (closeConnection === close) closeConnection = null;
    },
  );
  return { close, loaded };
}
