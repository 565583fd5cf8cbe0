import type { AdminSystem, RobotMode, SystemProcess } from '@tradebot/contract';
import type { RobotProcessesStore } from '../repositories/robot-processes.repository';
import type { RobotStats } from '../robot/protocol/robot-protocol';
import type { RobotRuntime } from '../robot/link/robot-runtime';
import type { RecentError, RecentErrors } from './recent-errors';

type Moves = SystemProcess['leaseMoves'];
const moveKinds = ['claimed', 'lost', 'released'] as const;
const hourMs = 60 * 60 * 1000;
/** A robot busy restarting answers nothing: the page does not wait for it longer than this. */
const statsTimeoutMs = 2_000;

/** What a process says of itself, stored in `robot_processes.report` (scaled mode). */
export interface ProcessReport {
  readonly at: string;
  readonly tickLagMs: number;
  readonly leaseMoves: Moves;
  readonly errors: readonly RecentError[];
}

/**
 * The lease moves of the last hour, from the robot's counters (decision 150), which only grow
 * within a thread's run: each read adds what moved since the read before, kept with its time.
 */
export class LeaseMoveWindow {
  private last: RobotStats | undefined;
  private readonly samples: { at: number; moves: Moves }[] = [];

  record(stats: RobotStats, at: number): void {
    const before = this.last?.run === stats.run ? this.last.leaseMoves : undefined;
    this.last = stats;
    const moves = {} as Record<keyof Moves, number>;
    for (const kind of moveKinds) {
      moves[kind] = Math.max(0, stats.leaseMoves[kind] - (before?.[kind] ?? 0));
    }
    if (moveKinds.some((kind) => moves[kind] > 0)) this.samples.push({ at, moves });
    while (this.samples.length > 0 && (this.samples[0]?.at ?? at) <= at - hourMs) {
      this.samples.shift();
    }
  }

  lastHour(): Moves {
    const sum = { claimed: 0, lost: 0, released: 0 };
    for (const sample of this.samples) {
      for (const kind of moveKinds) sum[kind] += sample.moves[kind];
    }
    return sum;
  }
}

const noMoves: Moves = { claimed: 0, lost: 0, released: 0 };

/**
 * The console's system page (decision 160): the processes running the robot, the accounts each
 * holds, their tick lag, their lease moves in the last hour and their last errors. Embedded, this
 * process is the only one and answers from memory; scaled, each process stores its report with
 * its row in `robot_processes` (`publish`, every 15 s) and the page reads the live ones, this
 * process's own figures taken fresh.
 */
export class SystemStatusService {
  private readonly moves = new LeaseMoveWindow();

  constructor(
    private readonly processes: RobotProcessesStore,
    private readonly options: {
      readonly owner: string;
      readonly mode: RobotMode;
      readonly robot: RobotRuntime | undefined;
      readonly recentErrors: RecentErrors;
      readonly now: () => number;
    },
  ) {}

  /** This process's report with the robot's accounts held; undefined without a robot here. */
  async ownReport(): Promise<{ report: ProcessReport; accounts: number } | undefined> {
    const robot = this.options.robot;
    if (!robot) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const stats = await Promise.race([
      robot.stats({ keepMax: true }).catch(() => undefined),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => {
          resolve(undefined);
        }, statsTimeoutMs);
      }),
    ]).finally(() => {
      clearTimeout(timer);
    });
    const now = this.options.now();
    if (stats) this.moves.record(stats, now);
    return {
      accounts: stats?.accountsHeld ?? 0,
      report: {
        at: new Date(now).toISOString(),
        tickLagMs: stats?.tickLagMs ?? 0,
        leaseMoves: this.moves.lastHour(),
        errors: this.options.recentErrors.list(),
      },
    };
  }

  /** Scaled mode: stores this process's report beside its liveness (the keeper's row). */
  async publish(): Promise<void> {
    const own = await this.ownReport();
    if (!own) return;
    await this.processes.storeReport(this.options.owner, own.report);
  }

  async status(): Promise<AdminSystem> {
    const { mode, owner } = this.options;
    const checkedAt = new Date(this.options.now()).toISOString();
    const own = await this.ownReport();
    const self = (accounts: number, report: ProcessReport): SystemProcess => ({
      process: owner,
      self: true,
      accounts,
      ...figures(report),
    });
    if (mode === 'embedded') {
      return {
        mode,
        checkedAt,
        processes: own ? [self(own.accounts, own.report)] : [],
        unheldAccounts: 0,
      };
    }
    const rows = await this.processes.live();
    const unheld = await this.processes.unheld();
    const processes = rows.map((row): SystemProcess => {
      const accounts = row.accounts;
      if (row.owner === owner && own) return self(accounts, own.report);
      const report = reportOf(row.report);
      return {
        process: row.owner,
        self: false,
        accounts,
        ...(report
          ? figures(report)
          : { tickLagMs: null, leaseMoves: noMoves, reportedAt: null, errors: [] }),
      };
    });
    // A robot here whose keeper has not said it is alive yet still shows.
    if (own && !rows.some((row) => row.owner === owner)) processes.unshift(self(0, own.report));
    return { mode, checkedAt, processes, unheldAccounts: unheld };
  }
}

function figures(report: ProcessReport) {
  return {
    tickLagMs: report.tickLagMs,
    leaseMoves: report.leaseMoves,
    reportedAt: report.at,
    errors: [...report.errors],
  };
}

/** A stored report as this version writes it; anything else counts as none. */
function reportOf(value: unknown): ProcessReport | null {
  if (typeof value !== 'object' || value === null) return null;
  const report = value as Partial<ProcessReport>;
  return typeof report.at === 'string' &&
    typeof report.tickLagMs === 'number' &&
    typeof report.leaseMoves === 'object' &&
    Array.isArray(report.errors)
    ? (report as ProcessReport)
    : null;
}
