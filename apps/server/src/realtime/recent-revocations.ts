import type { SessionsRevoked } from '../services/auth.service';

/**
 * The revocations of the last minute. A socket whose authentication read its session before
 * the revocation was stored would otherwise join its rooms just after the disconnection that
 * went with the revocation found nothing to close.
 */
export class RecentRevocations {
  private readonly sessions = new Map<string, number>();
  private readonly users = new Map<string, number>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly keepMs = 60_000,
  ) {}

  /** A time to pass to revokedSince: taken before an authentication starts. */
  stamp(): number {
    return this.now();
  }

  record(revoked: SessionsRevoked): void {
    const at = this.now();
    this.forgetOlderThan(at - this.keepMs);
    const [times, key] =
      'sessionId' in revoked ? [this.sessions, revoked.sessionId] : [this.users, revoked.userId];
    // Re-inserted, so that each map stays in time order.
    times.delete(key);
    times.set(key, at);
  }

  /** Whether the session, or every session of its user, was revoked at or after `since`. */
  revokedSince(since: number, session: { sessionId: string; userId: string }): boolean {
    const sessionRevoked = this.sessions.get(session.sessionId);
    const userRevoked = this.users.get(session.userId);
    return (
      (sessionRevoked !== undefined && sessionRevoked >= since) ||
      (userRevoked !== undefined && userRevoked >= since)
    );
  }

  private forgetOlderThan(limit: number): void {
    for (const times of [this.sessions, this.users]) {
      for (const [key, at] of times) {
        if (at >= limit) break;
        times.delete(key);
      }
    }
  }
}
