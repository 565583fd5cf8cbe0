import { performance } from 'node:perf_hooks';

/**
 * Which users have a socket on another server process (scaled mode), as those processes say
 * it: each announces its users when their first socket joins, again every refresh, and says
 * when the last one left. An announcement counts for `ttlMs`, so a process that died without
 * saying goodbye stops counting once its last announcement runs out (issue 21, the presence
 * set of decision 092). The clock is monotonic: a wall-clock jump neither revives nor drops
 * anyone.
 */
export class RemotePresence {
  /** User id -> announcing process -> until when (monotonic ms) its announcement counts. */
  private readonly byUser = new Map<string, Map<string, number>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `from` holds sockets of these users. */
  present(from: string, userIds: readonly string[]): void {
    const until = this.now() + this.ttlMs;
    for (const userId of userIds) {
      let holders = this.byUser.get(userId);
      if (!holders) {
        holders = new Map();
        this.byUser.set(userId, holders);
      }
      holders.set(from, until);
    }
  }

  /** `from` no longer holds a socket of these users. */
  absent(from: string, userIds: readonly string[]): void {
    for (const userId of userIds) {
      const holders = this.byUser.get(userId);
      if (!holders) continue;
      holders.delete(from);
      if (holders.size === 0) this.byUser.delete(userId);
    }
  }

  /** Whether some other process has said, recently enough, that it holds a socket of the user. */
  has(userId: string): boolean {
    const holders = this.byUser.get(userId);
    if (!holders) return false;
    const now = this.now();
    for (const until of holders.values()) if (until > now) return true;
    return false;
  }

  /** Forgets the announcements that ran out. */
  prune(): void {
    const now = this.now();
    for (const [userId, holders] of this.byUser) {
      for (const [from, until] of holders) if (until <= now) holders.delete(from);
      if (holders.size === 0) this.byUser.delete(userId);
    }
  }

  /** Users some other process holds a socket of, announcements still counting or not. */
  get size(): number {
    return this.byUser.size;
  }
}
