import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobRegistry } from './jobs';

function logger(errors: string[]): FastifyBaseLogger {
  return {
    error: (_object: unknown, message: string) => {
      errors.push(message);
    },
  } as unknown as FastifyBaseLogger;
}

describe('JobRegistry', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs nothing before the start, then every interval; a tick while a run is going is skipped', async () => {
    const registry = new JobRegistry(logger([]));
    let runs = 0;
    let finish: (() => void) | undefined;
    registry.add({
      name: 'slow',
      everyMs: 1_000,
      run: () => {
        runs += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      failure: 'slow failed',
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(0);
    registry.start();
    await vi.advanceTimersByTimeAsync(3_500);
    expect(runs).toBe(1);
    finish?.();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    finish?.();
    await registry.stop();
  });

  it('logs a failed run with its own line and runs again at the next tick', async () => {
    const errors: string[] = [];
    const registry = new JobRegistry(logger(errors));
    let runs = 0;
    registry.add({
      name: 'failing',
      everyMs: 1_000,
      run: () => {
        runs += 1;
        return Promise.reject(new Error('down'));
      },
      failure: 'failing: the run failed',
    });
    registry.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs).toBe(2);
    expect(errors).toEqual(['failing: the run failed', 'failing: the run failed']);
    await registry.stop();
  });

  it('logs a run that throws instead of rejecting, and runs again at the next tick', async () => {
    const errors: string[] = [];
    const registry = new JobRegistry(logger(errors));
    let runs = 0;
    registry.add({
      name: 'throwing',
      everyMs: 1_000,
      run: () => {
        runs += 1;
        throw new Error('down');
      },
      failure: 'throwing: the run failed',
    });
    registry.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(runs).toBe(3);
    expect(errors).toEqual([
      'throwing: the run failed',
      'throwing: the run failed',
      'throwing: the run failed',
    ]);
    await registry.stop();
  });

  it('stop clears the timers and waits for the run under way', async () => {
    const registry = new JobRegistry(logger([]));
    let runs = 0;
    let finish: (() => void) | undefined;
    registry.add({
      name: 'job',
      everyMs: 1_000,
      run: () => {
        runs += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      failure: 'job failed',
    });
    registry.start();
    await vi.advanceTimersByTimeAsync(1_000);
    let stopped = false;
    const stopping = registry.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish?.();
    await stopping;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(1);
  });

  it('refuses a name added twice and a job added after the start', () => {
    const registry = new JobRegistry(logger([]));
    const job = { name: 'a', everyMs: 1_000, run: () => Promise.resolve(), failure: 'a failed' };
    registry.add(job);
    expect(() => {
      registry.add(job);
    }).toThrow(/twice/);
    registry.start();
    expect(() => {
      registry.add({ ...job, name: 'b' });
    }).toThrow(/after the start/);
    void registry.stop();
  });
});
