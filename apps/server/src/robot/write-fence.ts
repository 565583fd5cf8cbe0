import { sql, type SQL } from 'drizzle-orm';
import { pgArrayLiteral } from '../db/pg-array';

/**
 * The fencing token on the robot's writes (decision 092). One run of the robot's core holds a
 * set of accounts, each with the token its lease had when the run started. Every write of an
 * order intent, a fill, a closure or a platform order checks, in the same statement, that the
 * account's lease still has this owner and this token: a process whose lease was taken over
 * (or re-claimed, which makes a new run) changes 0 rows.
 */
export interface WriteFence {
  readonly owner: string;
  /** The token of each account this run holds, as claimed when the run started. */
  readonly tokens: ReadonlyMap<string, number>;
  /** Whether an order may be sent for the account now (the lease keeper's own clock). */
  mayTrade(accountId: string): boolean;
  /** Told when writes changed fewer rows than they carried (a stale owner's, or replays). */
  refused(what: string, count: number): void;
}

/**
 * A condition true where the row's account is held by this run with its token: `account` is the
 * row's account id column (for example sql`i.account_id`). Without a fence, always true.
 */
export function fenced(fence: WriteFence | undefined, account: SQL): SQL {
  if (!fence) return sql`true`;
  const ids = [...fence.tokens.keys()];
  const tokens = ids.map((id) => fence.tokens.get(id) ?? -1);
  return sql`exists (
    select 1 from robot_leases l
    join unnest(${pgArrayLiteral(ids)}::uuid[], ${pgArrayLiteral(tokens)}::int8[]) as h(id, token)
      on h.id = l.account_id and h.token = l.token
    where l.account_id = ${account} and l.owner = ${fence.owner})`;
}
