import { describe, expect, it } from 'vitest';
import { RecentRevocations } from './recent-revocations';

function clockAt(start: number) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

const session = { sessionId: 's1', userId: 'u1' };

describe('RecentRevocations', () => {
  it('refuses an authentication that started before its session was revoked', () => {
    const clock = clockAt(1000);
    const revocations = new RecentRevocations(clock.now);
    const startedAt = revocations.stamp();
    clock.advance(5);
    revocations.record({ sessionId: 's1' });
    expect(revocations.revokedSince(startedAt, session)).toBe(true);
    expect(revocations.revokedSince(startedAt, { sessionId: 's2', userId: 'u2' })).toBe(false);
  });

  it("refuses every session of a user whose sessions were all revoked, not another user's", () => {
    const clock = clockAt(1000);
    const revocations = new RecentRevocations(clock.now);
    const startedAt = revocations.stamp();
    revocations.record({ userId: 'u1' });
    expect(revocations.revokedSince(startedAt, { sessionId: 'any', userId: 'u1' })).toBe(true);
    expect(revocations.revokedSince(startedAt, { sessionId: 's9', userId: 'u9' })).toBe(false);
  });

  it('lets through an authentication that started after the revocation (a new login)', () => {
    const clock = clockAt(1000);
    const revocations = new RecentRevocations(clock.now);
    revocations.record({ userId: 'u1' });
    clock.advance(1);
    expect(revocations.revokedSince(revocations.stamp(), session)).toBe(false);
  });

  it('forgets revocations older than its window', () => {
    const clock = clockAt(0);
    const revocations = new RecentRevocations(clock.now, 100);
    revocations.record({ sessionId: 's1' });
    revocations.record({ userId: 'u1' });
    clock.advance(150);
    revocations.record({ sessionId: 'later' });
    // Only a stamp older than the forgotten entries could have matched them.
    expect(revocations.revokedSince(-1, session)).toBe(false);
    expect(revocations.revokedSince(-1, { sessionId: 'later', userId: 'u2' })).toBe(true);
  });
});
