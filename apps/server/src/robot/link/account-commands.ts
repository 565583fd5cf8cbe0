import { setTimeout as sleep } from 'node:timers/promises';
import type { RobotSettings } from '@tradebot/robot';
import type { AccountProjection } from '../protocol/robot-protocol';
import { RobotUnavailable, type RobotRuntime } from './robot-runtime';

/**
 * What the HTTP side asks of the robot trading one account (decision 105): the kill switch
 * (also at deletion and at unlinking with "close everything"), the count of open operations an
 * unlinking leaves, and a deposit at the built-in platform (the yearly plan's gift). With one
 * process the local robot does it; in the scaled set-up (decision 092) only the process holding
 * the account's lease can, wherever the request came in.
 */
export interface AccountCommands {
  /**
   * Whether a command may reach a robot at all now. With one process: the local robot is up
   * (otherwise the kill switch changes nothing and answers 503). Scaled: always; whether a
   * holder answers is known only by asking.
   */
  reachable(): boolean;
  /**
   * The kill switch's robot side: `settings` (the robot off) apply at once, then every open
   * operation closes at the market and the closures land. Returns how many closed. Raises
   * RobotUnavailable when no process holding the account answered.
   */
  closeAll(accountId: string, settings: RobotSettings): Promise<number>;
  /**
   * The user closes one operation (decision 152): the robot trading the account asks its
   * platform to close that position at the market (reason 'manual') and waits, a bounded time,
   * until the closure landed. False when that robot has no such position open. Raises
   * RobotUnavailable when no process holding the account answered.
   */
  closePosition(accountId: string, positionId: string): Promise<boolean>;
  /** Operations open now on the account, as its robot sees them (0 without a robot account). */
  openOperations(accountId: string): Promise<number>;
  /** Adds cash to the account at the built-in platform; resolves once the deposit is durable. */
  deposit(accountId: string, cents: number): Promise<void>;
  /**
   * The linked cTrader accounts changed (a link, an unlink, a refreshed token): every robot
   * that trades or may claim them reads them again from the database (decision 096). With one
   * process, the local robot; scaled, this process's and every other's, since the account may
   * be held elsewhere and may move to any process later. Resolves once this process's robot has
   * them; the others' follow their message.
   */
  grantsChanged(): Promise<void>;
  /**
   * The user's stored settings changed: the robot trading the account applies them now. Scaled,
   * the holder does, wherever the change was served; without a holder they wait in the store for
   * the next claim, and a holder's lease round reads them anyway (decision 092), so this never
   * fails and never waits for another process.
   */
  applySettings(accountId: string, settings: RobotSettings): Promise<void>;
  /**
   * The account as the robot trading it shows it now (decision 070): this process's robot, or
   * scaled, the holder's, so that a dashboard served by any process is live. Undefined when no
   * robot has the account, or the holder did not answer within `projectionWaitMs` (the caller
   * then shows the ledger as last booked).
   */
  projection(accountId: string): Promise<AccountProjection | undefined>;
}

/** How long a read waits for the holder's projection before it shows the booked ledger. */
export const projectionWaitMs = 1_000;

/** A command that the holder carries out, answering with a number (JSON between processes). */
export type RobotCommand =
  | { readonly kind: 'closeAll'; readonly accountId: string; readonly settings: RobotSettings }
  | { readonly kind: 'openOperations'; readonly accountId: string }
  | { readonly kind: 'closePosition'; readonly accountId: string; readonly positionId: string }
  | { readonly kind: 'deposit'; readonly accountId: string; readonly cents: number }
  | {
      readonly kind: 'applySettings';
      readonly accountId: string;
      readonly settings: RobotSettings;
    };

/** What travels between processes: a command, or a read of the account's projection. */
export type AccountCommand =
  RobotCommand | { readonly kind: 'projection'; readonly accountId: string };

/** A process's answer: not the holder, or the holder's result. */
export type AccountCommandReply =
  | { readonly held: false }
  | { readonly held: true; readonly value: number }
  | { readonly held: true; readonly projection: AccountProjection }
  | { readonly held: true; readonly failure: 'unavailable' | 'failed'; readonly message: string };

/** The kill switch closes this many times at most (orders on their way may land meanwhile). */
const closeRounds = 3;

/**
 * One operation's closure is awaited this many times at most, `closeWaitMs` apart: the built-in
 * platform books it before the first check; a broker answers over the network (decision 152).
 */
const closeChecks = 25;
const closeWaitMs = 200;

/** The robot of this process (one process, or the holder's side in the scaled set-up). */
export class LocalAccountCommands implements AccountCommands {
  constructor(private readonly robot: RobotRuntime | undefined) {}

  reachable(): boolean {
    return this.robot?.running() ?? false;
  }

  /** Whether this process's robot is up and trades the account now. */
  trades(accountId: string): boolean {
    return this.reachable() && (this.robot?.hasAccount(accountId) ?? false);
  }

  private up(): RobotRuntime {
    // No robot here, or its worker is restarting: the caller may retry.
    if (!this.robot?.running()) throw new RobotUnavailable();
    return this.robot;
  }

  async closeAll(accountId: string, settings: RobotSettings): Promise<number> {
    const robot = this.up();
    if (robot.hasAccount(accountId)) await robot.applySettings(accountId, settings);
    let closed = 0;
    for (let round = 0; round < closeRounds; round++) {
      const now = await robot.closeAllPositions(accountId);
      await robot.settled();
      closed += now;
      if (now === 0 && ((await robot.projection(accountId))?.trades.length ?? 0) === 0) break;
    }
    return closed;
  }

  async closePosition(accountId: string, positionId: string): Promise<boolean> {
    const robot = this.up();
    if (!(await robot.closePosition(accountId, positionId))) return false;
    for (let check = 0; check < closeChecks; check++) {
      if (check > 0) await sleep(closeWaitMs);
      await robot.settled();
      const trades = (await robot.projection(accountId))?.trades ?? [];
      if (!trades.some((trade) => trade.id === positionId)) break;
    }
    return true;
  }

  async openOperations(accountId: string): Promise<number> {
    const robot = this.robot;
    if (!robot?.hasAccount(accountId)) return 0;
    return (await robot.projection(accountId))?.trades.length ?? 0;
  }

  deposit(accountId: string, cents: number): Promise<void> {
    return this.up().deposit(accountId, cents);
  }

  grantsChanged(): Promise<void> {
    return this.robot?.syncCTrader() ?? Promise.resolve();
  }

  async applySettings(accountId: string, settings: RobotSettings): Promise<void> {
    if (this.robot?.hasAccount(accountId)) await this.robot.applySettings(accountId, settings);
  }

  projection(accountId: string): Promise<AccountProjection | undefined> {
    return this.robot?.projection(accountId) ?? Promise.resolve(undefined);
  }

  /** Runs a command here. */
  run(command: RobotCommand): Promise<number> {
    switch (command.kind) {
      case 'closeAll':
        return this.closeAll(command.accountId, command.settings);
      case 'openOperations':
        return this.openOperations(command.accountId);
      case 'closePosition':
        return this.closePosition(command.accountId, command.positionId).then(Number);
      case 'deposit':
        return this.deposit(command.accountId, command.cents).then(() => 0);
      case 'applySettings':
        return this.applySettings(command.accountId, command.settings).then(() => 0);
    }
  }
}

/** The other processes, over the Socket.IO adapter (decision 105). */
export interface Peers {
  /**
   * Sends a command to every other process and gathers their answers: those in by `waitMs`
   * (by default, the adapter's own timeout for every process to answer).
   */
  ask(command: AccountCommand, waitMs?: number): Promise<AccountCommandReply[]>;
  /** Tells every other process that the linked cTrader accounts changed (no answer awaited). */
  grantsChanged(): void;
}

export interface ScaledAccountCommandsOptions {
  /** This process's name in the leases (decision 092). */
  readonly owner: string;
  /** The process holding the account's lease now, from the database; undefined: none. */
  readonly leaseOwner: (accountId: string) => Promise<string | undefined>;
}

/**
 * The scaled set-up (ROBOT_LEASES with REDIS_URL): a command runs where the account's lease is.
 * This process runs it when it holds the account; otherwise it asks the others, and the holder
 * runs it and answers with its result while the others answer "not mine". No holder's answer
 * (no holder now, a lease moving between processes, or no answer in time): RobotUnavailable,
 * a 503 the user retries; never a success nobody vouched for.
 */
export class ScaledAccountCommands implements AccountCommands {
  private peers: Peers | undefined;

  constructor(
    private readonly local: LocalAccountCommands,
    private readonly options: ScaledAccountCommandsOptions,
  ) {}

  /** The way to the other processes (the Socket.IO gateway, once it is up). */
  connect(peers: Peers): void {
    this.peers = peers;
  }

  reachable(): boolean {
    return true;
  }

  closeAll(accountId: string, settings: RobotSettings): Promise<number> {
    return this.send({ kind: 'closeAll', accountId, settings });
  }

  openOperations(accountId: string): Promise<number> {
    return this.send({ kind: 'openOperations', accountId });
  }

  async closePosition(accountId: string, positionId: string): Promise<boolean> {
    return (await this.send({ kind: 'closePosition', accountId, positionId })) === 1;
  }

  async deposit(accountId: string, cents: number): Promise<void> {
    await this.send({ kind: 'deposit', accountId, cents });
  }

  /**
   * The message carries no grant (no token travels over Redis): each process reads them from
   * the database. A process that misses it (Redis down at that moment) keeps what it read last
   * until the next change or its restart.
   */
  grantsChanged(): Promise<void> {
    this.peers?.grantsChanged();
    return this.local.grantsChanged();
  }

  /**
   * Applied here when this process holds the account; otherwise the holder is asked and the
   * request goes on without its answer (the holder's next lease round reads the store anyway).
   */
  async applySettings(accountId: string, settings: RobotSettings): Promise<void> {
    if (await this.holds(accountId)) {
      await this.local.applySettings(accountId, settings);
      return;
    }
    this.send({ kind: 'applySettings', accountId, settings }).catch(() => undefined);
  }

  /**
   * This process's robot when it has the account (no lease check: a read may come from a run
   * whose lease is moving, as it would without the move); else the holder's answer.
   */
  async projection(accountId: string): Promise<AccountProjection | undefined> {
    if (this.local.trades(accountId)) return this.local.projection(accountId);
    if (!this.peers) return undefined;
    const replies = await this.peers.ask({ kind: 'projection', accountId }, projectionWaitMs);
    for (const reply of replies) if ('projection' in reply) return reply.projection;
    return undefined;
  }

  /** Another process said the linked cTrader accounts changed. */
  heardGrantsChanged(): Promise<void> {
    return this.local.grantsChanged();
  }

  /**
   * Whether this process holds the account: its robot trades it and the database names this
   * process as the lease's owner (a run about to be replaced may still have an account whose
   * lease has moved on).
   */
  private async holds(accountId: string): Promise<boolean> {
    if (!this.local.trades(accountId)) return false;
    return (await this.options.leaseOwner(accountId)) === this.options.owner;
  }

  private async send(command: RobotCommand): Promise<number> {
    if (await this.holds(command.accountId)) return this.runHere(command);
    const replies = this.peers ? await this.peers.ask(command) : [];
    const reply = replies.find((one) => one.held);
    if (!reply) throw new RobotUnavailable();
    if ('value' in reply) return reply.value;
    if ('projection' in reply) throw new Error('the holder answered a read to a command');
    if (reply.failure === 'unavailable') throw new RobotUnavailable();
    throw new Error(`the process holding the account failed: ${reply.message}`);
  }

  /** Runs the command, then checks the lease is still this process's: else the user retries. */
  private async runHere(command: RobotCommand): Promise<number> {
    const value = await this.local.run(command);
    if (!(await this.holds(command.accountId))) throw new RobotUnavailable();
    return value;
  }

  /** Another process's command: run here if this process holds the account. */
  async answer(command: AccountCommand): Promise<AccountCommandReply> {
    if (command.kind === 'projection') {
      const { accountId } = command;
      const projection = this.local.trades(accountId)
        ? await this.local.projection(accountId)
        : undefined;
      return projection ? { held: true, projection } : { held: false };
    }
    if (!(await this.holds(command.accountId))) return { held: false };
    try {
      return { held: true, value: await this.runHere(command) };
    } catch (error) {
      return {
        held: true,
        failure: error instanceof RobotUnavailable ? 'unavailable' : 'failed',
        message: error instanceof Error ? error.message : String(error),
      };
    }
  }
}
