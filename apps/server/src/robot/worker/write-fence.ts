import { sql, type SQL } from 'drizzle-orm';

/**
 * The fencing token on the robot's writes (decision 092). One run of the robot's core holds a
 * set of accounts, each with the token its lease had when the run started. Every write of an
 * order intent, a fill, a closure or a platform order checks, in the same statement, that the
 * account's lease still has this owner and this run's token: a process whose lease was taken
 * over (or re-claimed, which makes a new run) changes 0 rows.
 */
export interface WriteFence {
  readonly owner: string;
  /** The token of each account this run holds, as claimed when the run started. */
  readonly tokens: ReadonlyMap<string, number>;
  /** The greatest of `tokens` (0 with none): what the statements check (see `fenced`). */
  readonly ceiling: number;
  /** Whether an order may be sent for the account now (the lease keeper's own clock). */
  mayTrade(accountId: string): boolean;
  /** Told when writes changed fewer rows than they carried (a stale owner's, or replays). */
  refused(what: string, count: number): void;
}

/** The fence of a run holding these accounts with these tokens. */
export function fenceOf(
  owner: string,
  tokens: ReadonlyMap<string, number>,
  mayTrade: (accountId: string) => boolean,
  refused: (what: string, count: number) => void,
): WriteFence {
  let ceiling = 0;
  for (const token of tokens.values()) ceiling = Math.max(ceiling, token);
  return { owner, tokens, ceiling, mayTrade, refused };
}

/**
 * A condition true where the row's account is held by this run with its token: `account` is the
 * row's account id column (for example sql`i.account_id`). Without a fence, always true.
 *
 * Every claim takes its token from one sequence (`robot_lease_tokens`), so a claim's token is
 * above every token claimed before it. The lease of an account the run holds has this owner and
 * a token of at most the run's greatest exactly while it is still the run's claim: a later claim
 * (another process's, or this process's own re-claim, which starts a new run) has a greater
 * token or another owner, and a release clears the owner. So the statement checks
 * `owner = $owner and token <= $ceiling` with one primary-key lookup a row: its cost is the
 * statement's rows, not the accounts held, and it carries two values, not the held set. It is a
 * scalar subquery so that the planner cannot turn it into a join driven by the held leases
 * (a nested loop of held accounts × the table's rows, minutes at 10,000 accounts).
 */
export function fenced(fence: WriteFence | undefined, account: SQL): SQL {
  if (!fence) return sql`true`;
  return sql`(select l.token from robot_leases l
    where l.account_id = ${account} and l.owner = ${fence.owner}) <= ${fence.ceiling}`;
}
