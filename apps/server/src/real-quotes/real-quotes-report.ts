import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { RealQuotesCadence, RealQuotesReport } from '@tradebot/contract';
import type { RealQuotesJob } from './real-quotes-job';
import type { RealQuotesRun, RealQuotesRunner } from './real-quotes-runner';

export interface RealQuotesSettings {
  /** The recorded quotes; undefined: none on this server. */
  readonly folder: string | undefined;
  /** Who recorded them, as the page names them. */
  readonly source: string;
  readonly cadence: RealQuotesCadence;
  readonly risk: number;
  /** The computing process's nice value (RECORDED_QUOTES_NICE). */
  readonly nice: number;
  /** Where computed figures are kept across restarts (DATA_DIR/real-quotes). */
  readonly cacheDir: string;
}

export interface RealQuotesDependencies {
  readonly runner: RealQuotesRunner;
  readonly fingerprint: (folder: string) => Promise<string>;
  readonly robotVersion: () => Promise<string>;
  readonly now: () => Date;
  readonly onComputed: (run: RealQuotesRun & { fromCache: boolean }) => void;
  readonly onFailed: (error: unknown) => void;
}

const cachedSchema = z.object({
  key: z.string(),
  computedAt: z.string(),
  cpuMs: z.number(),
  wallMs: z.number(),
  figures: z.object({
    instruments: z.array(z.string()).readonly(),
    quotes: z.number().int(),
    first: z.number(),
    last: z.number(),
    startingBalanceUsd: z.number(),
    operations: z.number().int(),
    wins: z.number().int(),
    resultUsd: z.number(),
    noEdgeShare: z.number().nullable(),
    marketOpenMinutes: z.number().int(),
    brierSkill: z.number().nullable(),
    forecasts: z.number().int(),
  }),
});
type Cached = z.infer<typeof cachedSchema>;

/**
 * The robot on recorded real quotes, for the track record (decision 142). Started once, it
 * answers "computing" while a child process replays the quotes, then the figures; they are
 * kept in a file named by the data's fingerprint, the robot's code version, the cadence and the
 * risk level, so a restart with the same data and code reads them instead of computing again.
 * Without quotes, or when they cannot be read, it answers "unavailable" (and says why in the log).
 */
export class RealQuotesReportService {
  private state: RealQuotesReport;
  private readonly abort = new AbortController();
  private work: Promise<void> | undefined;

  constructor(
    private readonly settings: RealQuotesSettings,
    private readonly dependencies: RealQuotesDependencies,
  ) {
    this.state =
      settings.folder === undefined
        ? { status: 'unavailable' }
        : { status: 'computing', progress: 0 };
  }

  current(): RealQuotesReport {
    return this.state;
  }

  /** Starts the work once; it runs in the background. */
  start(): void {
    const { folder } = this.settings;
    if (folder === undefined || this.work) return;
    this.work = this.compute(folder).catch((error: unknown) => {
      this.state = { status: 'unavailable' };
      if (!this.abort.signal.aborted) this.dependencies.onFailed(error);
    });
  }

  /** Ends a run still going (its child process with it) and waits for it. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.work;
  }

  private async compute(folder: string): Promise<void> {
    const { settings, dependencies } = this;
    const [fingerprint, robot] = await Promise.all([
      dependencies.fingerprint(folder),
      dependencies.robotVersion(),
    ]);
    const key = createHash('sha256')
      .update(
        JSON.stringify({ fingerprint, robot, cadence: settings.cadence, risk: settings.risk }),
      )
      .digest('hex');
    const file = path.join(settings.cacheDir, `${key}.json`);
    const cached = await readCached(file, key);
    if (cached) {
      this.state = this.ready(cached);
      dependencies.onComputed({ ...cached, fromCache: true });
      return;
    }
    const job: RealQuotesJob = {
      folder,
      cadence: settings.cadence,
      risk: settings.risk,
      nice: settings.nice,
    };
    const run = await dependencies.runner(
      job,
      (progress) => {
        if (this.state.status === 'computing') this.state = { status: 'computing', progress };
      },
      this.abort.signal,
    );
    const entry: Cached = { key, computedAt: dependencies.now().toISOString(), ...run };
    await mkdir(settings.cacheDir, { recursive: true });
    // Written whole or not at all: a half-written file is never read as figures.
    const partial = `${file}.${String(process.pid)}.partial`;
    await writeFile(partial, JSON.stringify(entry));
    await rename(partial, file);
    this.state = this.ready(entry);
    dependencies.onComputed({ ...run, fromCache: false });
  }

  private ready(entry: Cached): RealQuotesReport {
    const { figures } = entry;
    return {
      status: 'ready',
      source: this.settings.source,
      from: new Date(figures.first).toISOString(),
      to: new Date(figures.last).toISOString(),
      instruments: [...figures.instruments],
      quotes: figures.quotes,
      cadence: this.settings.cadence,
      risk: this.settings.risk,
      startingBalanceUsd: figures.startingBalanceUsd,
      operations: figures.operations,
      wins: figures.wins,
      resultUsd: figures.resultUsd,
      noEdgeShare: figures.noEdgeShare,
      brierSkill: figures.brierSkill,
      forecasts: figures.forecasts,
      computedAt: entry.computedAt,
    };
  }
}

/** The kept figures for this key, or undefined when there are none (or they do not parse). */
async function readCached(file: string, key: string): Promise<Cached | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = cachedSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.key === key ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
