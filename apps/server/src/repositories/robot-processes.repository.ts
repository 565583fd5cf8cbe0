import { sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { rowsOf } from '../db/migrate';

/** A robot process alive now (scaled mode), with the accounts it holds and its stored report. */
export interface LiveRobotProcess {
  readonly owner: string;
  /** `robot_processes.report` as stored (decision 160); null before its first report. */
  readonly report: unknown;
  readonly accounts: number;
}

/** What the system page needs of the stored robot processes (a port: services use this). */
export interface RobotProcessesStore {
  storeReport(owner: string, report: object): Promise<void>;
  live(): Promise<LiveRobotProcess[]>;
  unheld(): Promise<number>;
}

/** The robot processes of `robot_processes` and `robot_leases` (decisions 092 and 160). */
export class RobotProcessesRepository implements RobotProcessesStore {
  constructor(private readonly db: Db) {}

  /** Stores the process's report beside its liveness (the lease keeper's row). */
  async storeReport(owner: string, report: object): Promise<void> {
    await this.db.execute(sql`
      update robot_processes set report = ${JSON.stringify(report)}::jsonb
      where owner = ${owner}`);
  }

  /** The processes whose keeper said it is alive, by name, with the accounts each holds now. */
  async live(): Promise<LiveRobotProcess[]> {
    const rows = rowsOf<{ owner: string; report: unknown; accounts: string | number }>(
      await this.db.execute(sql`
        select p.owner, p.report,
          (select count(*) from robot_leases l
            where l.owner = p.owner and l.lease_until > now()) as accounts
        from robot_processes p
        where p.seen_until > now()
        order by p.owner`),
    );
    return rows.map((row) => ({
      owner: row.owner,
      report: typeof row.report === 'string' ? parseJson(row.report) : row.report,
      accounts: Number(row.accounts),
    }));
  }

  /** Accounts no process holds now. */
  async unheld(): Promise<number> {
    const rows = rowsOf<{ n: string | number }>(
      await this.db.execute(sql`
        select count(*) as n from robot_leases where owner = '' or lease_until <= now()`),
    );
    return Number(rows[0]?.n ?? 0);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
