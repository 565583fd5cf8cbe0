import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Work a capability wants done every `everyMs` (decision 145). */
export interface TimedJob {
  /** Unique; `runNow` names it. */
  name: string;
  everyMs: number;
  /**
   * One run. Every process runs every job: work meant for one process only claims its items
   * inside the run (`JobClaims`, decision 078), so that each is done by one of the processes
   * sharing the database and its retries keep their own backoff; work that is each process's own
   * (the presence heartbeat, the live equity sweep) claims nothing.
   */
  run: () => Promise<unknown>;
  /**
   * The log line when a run fails, by rejecting or by throwing (the run is tried again at the
   * next tick).
   */
  failure: string;
}

interface Registered extends TimedJob {
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
}

/**
 * The one place timed work runs (decision 145): each capability adds its jobs while it is
 * registered; they start once the app is ready (after every capability's start-up step) and
 * stop first when it closes, waiting for the runs under way. A job runs once at a time in this
 * process: a tick that finds the previous run still going is skipped.
 */
export class JobRegistry {
  private readonly jobs = new Map<string, Registered>();
  private started = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  add(job: TimedJob): void {
    if (this.jobs.has(job.name)) throw new Error(`jobs: "${job.name}" is added twice`);
    if (this.started) throw new Error(`jobs: "${job.name}" is added after the start`);
    this.jobs.set(job.name, { ...job });
  }

  /** The names added, in order (tests, and what a reader of the logs can expect). */
  names(): string[] {
    return [...this.jobs.keys()];
  }

  /** Runs a job now, unless it is running (then the run under way is waited for). */
  runNow(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) return Promise.resolve();
    // A run that throws before it returns its promise fails like one that rejects.
    job.running ??= new Promise((resolve) => {
      resolve(job.run());
    })
      .then(
        () => undefined,
        (error: unknown) => {
          this.log.error({ err: error }, job.failure);
        },
      )
      .finally(() => {
        job.running = undefined;
      });
    return job.running;
  }

  start(): void {
    this.started = true;
    for (const job of this.jobs.values()) {
      job.timer = setInterval(() => {
        if (!job.running) void this.runNow(job.name);
      }, job.everyMs);
      job.timer.unref();
    }
  }

  /** No new run starts; resolves once the runs under way are over. */
  async stop(): Promise<void> {
    for (const job of this.jobs.values()) clearInterval(job.timer);
    await Promise.all([...this.jobs.values()].map((job) => job.running ?? Promise.resolve()));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Timed work of every capability (decision 145). */
    jobs: JobRegistry;
  }
}

/**
 * Registered last: its onReady hook runs after every capability's (so billing grants the gifts a
 * stop interrupted before its clock ticks), and its onClose hook first (hooks close last
 * registered first), so no timed run is left going while a capability stops.
 */
export const timedJobs = fp(
  (app: FastifyInstance) => {
    app.addHook('onReady', () => {
      app.jobs.start();
      return Promise.resolve();
    });
    app.addHook('onClose', () => app.jobs.stop());
    return Promise.resolve();
  },
  { name: 'timed-jobs', dependencies: ['foundation'] },
);
