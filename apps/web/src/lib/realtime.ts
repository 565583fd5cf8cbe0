/**
 * Hook point for the private real-time channel (spec §4 Real-time updates). No connection
 * exists yet: the dashboard issue opens it and registers how to close it here, so that
 * logout (spec §4 Session) closes it with everything else.
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
