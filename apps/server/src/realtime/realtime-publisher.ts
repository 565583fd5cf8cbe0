import type { RealtimeInfo } from '@tradebot/contract';

/**
 * Port: what reaches a user's browsers on their private channel (spec §4, Real-time updates).
 * The Socket.IO gateway implements it; in scaled mode its Redis adapter carries each event to
 * whichever server process holds the user's sockets.
 */
export interface RealtimePublisher {
  /**
   * Sends `info` to every live socket of the user. In scaled mode it stays off Redis when the
   * user's only sockets known are on this process.
   */
  toUser(userId: string, info: RealtimeInfo): void;
  /**
   * Whether the user has a socket listening. Updates are built only for such users. In scaled
   * mode a socket on another process counts too, as that process last announced it (the
   * gateway's presence, decision 092).
   */
  hasListeners(userId: string): boolean;
  /** Logout: the sockets opened with this session close. */
  disconnectSession(sessionId: string): void;
  /** Password change: every socket of the user closes. */
  disconnectUser(userId: string): void;
}
