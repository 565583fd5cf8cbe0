import { describe, expect, it } from 'vitest';
import { RemotePresence } from './remote-presence';

describe('RemotePresence', () => {
  function atClock() {
    const clock = { now: 0 };
    return { clock, presence: new RemotePresence(60_000, () => clock.now) };
  }

  it('counts an announcement for its time to live, then no longer', () => {
    const { clock, presence } = atClock();
    presence.present('a', ['maria']);
    clock.now = 59_999;
    expect(presence.has('maria')).toBe(true);
    clock.now = 60_000;
    expect(presence.has('maria')).toBe(false);
  });

  it('a refresh extends it; a process that falls silent stops counting', () => {
    const { clock, presence } = atClock();
    presence.present('a', ['maria']);
    clock.now = 40_000;
    presence.present('a', ['maria']);
    clock.now = 90_000;
    expect(presence.has('maria')).toBe(true);
    clock.now = 100_000;
    expect(presence.has('maria')).toBe(false);
  });

  it("one process's goodbye leaves another's socket counting", () => {
    const { presence } = atClock();
    presence.present('a', ['maria', 'joao']);
    presence.present('b', ['maria']);
    presence.absent('a', ['maria', 'joao']);
    expect(presence.has('maria')).toBe(true);
    expect(presence.has('joao')).toBe(false);
    presence.absent('b', ['maria']);
    expect(presence.has('maria')).toBe(false);
    expect(presence.size).toBe(0);
  });

  it('prune forgets what ran out and keeps the rest', () => {
    const { clock, presence } = atClock();
    presence.present('a', ['maria']);
    clock.now = 30_000;
    presence.present('b', ['joao']);
    clock.now = 70_000;
    presence.prune();
    expect(presence.size).toBe(1);
    expect(presence.has('joao')).toBe(true);
  });
});
