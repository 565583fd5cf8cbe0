import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/migrate';
import { pgArrayLiteral } from '../../db/pg-array';
import type { LeaseLogLevel } from '../protocol/robot-protocol';

/**
 * Account leases (decision 092): a robot process trades an account only while it holds the
 * account's lease in `robot_leases`. A claim takes a new token from the `robot_lease_tokens`
 * sequence, above every token claimed before it (write-fence.ts relies on it); a renewal only
 * extends a lease whose owner and token are still this process's. Lease times are the
 * database's `now()`; the process fences itself on its own monotonic clock (`monotonicMs`):
 * it stops sending orders for an account `marginMs` before the lease could have lapsed, counted
 * from the moment the claim or renewal was sent, so a process that cannot reach the database (or
 * was paused) stops in time whatever the wall clock says.
 */
export interface LeaseOptions {
  /** This process, as the status shows it (processName()). */
  readonly owner: string;
  /** How long a claim or renewal holds an account, on the database's clock. */
  readonly leaseMs: number;
  /** How much earlier than the lease's end this process stops sending orders. */
  readonly marginMs: number;
  /** The most accounts this process holds. */
  readonly capacity: number;
}

export interface HeldLease {
  readonly token: number;
  /** Database time of the claim, epoch ms. */
  readonly since: number;
  /** `monotonicMs()` before which this process may send orders for the account. */
  readonly tradeUntil: number;
}

/** What one round of the keeper changed. */
export interface LeaseRound {
  /** Claimed this round (with a new token). */
  readonly gained: readonly string[];
  /** No longer this process's: taken over, or not renewed in time (self-fenced). */
  readonly lost: readonly string[];
  /** More than this process's share: to stop trading, then `release`. */
  readonly surplus: readonly string[];
}

interface ClaimRow {
  account_id: string;
  token: string | number;
  since: Date | string;
  left_ms: string | number;
}

/**
 * The process's monotonic clock in ms (`process.hrtime`: CLOCK_MONOTONIC, one clock for every
 * thread of the process), so a trading deadline the keeper's thread sets is read as is by the
 * robot's thread (decision 092, the keeper on its own thread).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
const now = monotonicMs;

/** Where a keeper's lines go: one per event, with the accounts it concerns. */
export type LeaseLog = (
  message: string,
  accounts: readonly string[],
  level?: LeaseLogLevel,
) => void;

/** What the robot's host needs of a keeper: this one, or one on its own thread. */
export interface LeaseKeeping {
  readonly options: LeaseOptions;
  mayTrade(accountId: string): boolean;
  tokenOf(accountId: string): number | undefined;
  heldAccounts(): string[];
  round(): Promise<LeaseRound>;
  expire(): string[];
  release(accountIds: readonly string[]): Promise<void>;
  releaseAll(): Promise<void>;
  close?(): Promise<void>;
}

export class LeaseKeeper implements LeaseKeeping {
  private readonly held = new Map<string, HeldLease>();
  /**
   * The last query failed: an outage is logged once, at warn when it starts, and once more when
   * the database answers again, not on every round and renewal in between.
   */
  private unreachable = false;

  constructor(
    private readonly db: Db,
    readonly options: LeaseOptions,
    private readonly log: LeaseLog = () => undefined,
  ) {}

  /** Whether this process may send orders for the account now (held and not about to lapse). */
  mayTrade(accountId: string): boolean {
    const lease = this.held.get(accountId);
    return lease !== undefined && now() < lease.tradeUntil;
  }

  /** The fencing token every write for the account carries, while held. */
  tokenOf(accountId: string): number | undefined {
    return this.held.get(accountId)?.token;
  }

  lease(accountId: string): HeldLease | undefined {
    return this.held.get(accountId);
  }

  heldAccounts(): string[] {
    return [...this.held.keys()];
  }

  /**
   * One round: renew what is held, drop what could not be renewed in time, work out this
   * process's share of the accounts and claim free ones up to it (and up to capacity). A
   * database that cannot be reached renews nothing: accounts are dropped as their trading time
   * runs out on the monotonic clock.
   */
  async round(options: { readonly renew?: boolean } = {}): Promise<LeaseRound> {
    const lost: string[] = [];
    const gained: string[] = [];
    let surplus: string[] = [];
    try {
      // A keeper on its own thread renews on its own timer (`renewNow`); its rounds only claim.
      if (options.renew !== false) await this.renew(lost);
      const share = await this.share();
      const room = Math.min(share, this.options.capacity) - this.held.size;
      if (room > 0) gained.push(...(await this.claim(room)));
      else if (room < 0) {
        // Gradually: a few accounts a round, so a newcomer's share moves over in steps.
        const step = Math.max(1, Math.ceil(share / 10));
        surplus = [...this.held.keys()].slice(0, Math.min(-room, step));
      }
      this.answered();
    } catch (error) {
      this.failed(error);
    }
    lost.push(...this.lapsed());
    if (lost.length > 0) {
      this.log('leases: stopped trading accounts whose lease this process lost', lost);
    }
    return { gained, lost, surplus };
  }

  /** Renews what is held and drops what could not be renewed in time; returns what was lost. */
  async renewNow(): Promise<string[]> {
    const lost: string[] = [];
    try {
      // Nothing held asks the database nothing, and so says nothing of it.
      const asked = this.held.size > 0;
      await this.renew(lost);
      if (asked) this.answered();
    } catch (error) {
      this.failed(error);
    }
    lost.push(...this.lapsed());
    if (lost.length > 0) {
      this.log('leases: stopped trading accounts whose lease this process lost', lost);
    }
    return lost;
  }

  /**
   * Between rounds, or while a round hangs on a database that does not answer (a network
   * partition holds its packets): drops the accounts whose trading time ran out on the monotonic
   * clock, and says so. `mayTrade` already refuses them; this makes the loss seen and logged in
   * time, not when the hanging round ends.
   */
  expire(): string[] {
    const lost = this.lapsed();
    if (lost.length > 0) {
      this.log('leases: stopped trading accounts whose lease this process lost', lost);
    }
    return lost;
  }

  /** A query failed: the start of an outage is logged (at warn), the rest of it is not. */
  private failed(error: unknown): void {
    if (this.unreachable) return;
    this.unreachable = true;
    this.log(`leases: the database could not be reached (${errorText(error)})`, [], 'warn');
  }

  /** A query answered: the end of an outage is logged. */
  private answered(): void {
    if (!this.unreachable) return;
    this.unreachable = false;
    this.log('leases: the database answers again', []);
  }

  private lapsed(): string[] {
    const lost: string[] = [];
    const time = now();
    for (const [accountId, lease] of this.held) {
      if (time >= lease.tradeUntil) {
        this.held.delete(accountId);
        lost.push(accountId);
      }
    }
    return lost;
  }

  private async renew(lost: string[]): Promise<void> {
    if (this.held.size === 0) return;
    const ids = [...this.held.keys()];
    const tokens = ids.map((id) => this.held.get(id)?.token ?? -1);
    const sent = now();
    const result = await this.db.execute(sql`
      update robot_leases as l
      set lease_until = now() + ${this.options.leaseMs} * interval '1 millisecond'
      from unnest(${pgArrayLiteral(ids)}::uuid[], ${pgArrayLiteral(tokens)}::int8[]) as v(id, token)
      where l.account_id = v.id and l.owner = ${this.options.owner} and l.token = v.token
      returning l.account_id`);
    const renewed = new Set(rowsOf<{ account_id: string }>(result).map((row) => row.account_id));
    for (const id of ids) {
      const lease = this.held.get(id);
      if (!lease) continue;
      if (renewed.has(id)) {
        this.held.set(id, { ...lease, tradeUntil: this.tradeUntil(sent) });
      } else {
        this.held.delete(id);
        lost.push(id);
      }
    }
  }

  /** This process's fair share: the accounts over the processes holding leases now. */
  private async share(): Promise<number> {
    // Every account at the platform, and every account linked to a cTrader broker (decision
    // 096), has a lease row (a new one is free at once).
    await this.db.execute(sql`
      insert into robot_leases (account_id, lease_until)
      select p.account_id, '-infinity'::timestamptz from (
        select account_id from platform_accounts
        union select user_id from trading_platform_links where platform = 'ctrader'
      ) p
      where not exists (select 1 from robot_leases l where l.account_id = p.account_id)
      on conflict do nothing`);
    // This process says it is alive for a lease's time; the others alive share the accounts.
    await this.db.execute(sql`
      insert into robot_processes (owner, seen_until)
      values (${this.options.owner}, now() + ${this.options.leaseMs} * interval '1 millisecond')
      on conflict (owner) do update set seen_until = excluded.seen_until`);
    const result = await this.db.execute(sql`
      select (select count(*) from robot_leases) as accounts,
        (select count(*) from robot_processes where seen_until > now()) as processes`);
    const row = rowsOf<{ accounts: string | number; processes: string | number }>(result)[0];
    const accounts = Number(row?.accounts ?? 0);
    const processes = Math.max(1, Number(row?.processes ?? 1));
    return Math.ceil(accounts / processes);
  }

  private async claim(room: number): Promise<string[]> {
    const sent = now();
    const result = await this.db.execute(sql`
      with free as (
        select account_id from robot_leases
        where lease_until <= now()
        order by account_id
        limit ${room}
        for update skip locked)
      update robot_leases as l
      set owner = ${this.options.owner}, token = nextval('robot_lease_tokens'), held_since = now(),
        lease_until = now() + ${this.options.leaseMs} * interval '1 millisecond'
      from free where l.account_id = free.account_id
      returning l.account_id, l.token, l.held_since as since,
        extract(epoch from (l.lease_until - now())) * 1000 as left_ms`);
    const gained: string[] = [];
    for (const row of rowsOf<ClaimRow>(result)) {
      this.held.set(row.account_id, {
        token: Number(row.token),
        since: new Date(row.since).getTime(),
        tradeUntil: this.tradeUntil(sent),
      });
      gained.push(row.account_id);
    }
    if (gained.length > 0) this.log('leases: claimed accounts', gained);
    return gained;
  }

  private tradeUntil(sent: number): number {
    return sent + this.options.leaseMs - this.options.marginMs;
  }

  /** Stops holding the accounts (after their trading stopped): anyone may claim them at once. */
  async release(accountIds: readonly string[]): Promise<void> {
    const leases = accountIds.flatMap((id) => {
      const lease = this.held.get(id);
      return lease ? [{ id, token: lease.token }] : [];
    });
    for (const { id } of leases) this.held.delete(id);
    if (leases.length === 0) return;
    await this.db.execute(sql`
      update robot_leases as l set owner = '', lease_until = now(), held_since = null
      from unnest(
        ${pgArrayLiteral(leases.map((l) => l.id))}::uuid[],
        ${pgArrayLiteral(leases.map((l) => l.token))}::int8[]) as v(id, token)
      where l.account_id = v.id and l.owner = ${this.options.owner} and l.token = v.token`);
    this.log(
      'leases: released accounts',
      leases.map((l) => l.id),
    );
  }

  /** Shutdown: releases every account and says this process is gone. */
  async releaseAll(): Promise<void> {
    await this.release(this.heldAccounts());
    await this.db.execute(sql`delete from robot_processes where owner = ${this.options.owner}`);
  }

  /** Forgets every lease without telling the database (a process that may not write any more). */
  dropAll(): string[] {
    const ids = [...this.held.keys()];
    this.held.clear();
    return ids;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
