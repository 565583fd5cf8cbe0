import type { Strategy } from '@tradebot/robot';
import type { Db } from '../db/database';
import { RobotCore } from './robot-core';
import {
  forwardedEventTypes,
  type ClientMessage,
  type ForwardedEvent,
  type HostMessage,
  type RobotHostOptions,
  type RobotOperations,
  type RobotRequest,
} from './robot-protocol';
import type { AccountView } from './robot-runtime';

/** Where the host talks: the worker's `parentPort`, or one end of a MessageChannel (inline). */
export interface HostPort {
  postMessage(message: HostMessage): void;
  on(event: 'message', listener: (message: ClientMessage) => void): unknown;
}

export interface RobotHostExtras {
  /** A strategy object (tests): it cannot cross threads, so only an inline host takes one. */
  readonly strategy?: Strategy;
  /** Runs once the robot has stopped, before `stop` is answered (the worker closes its pool). */
  readonly onStopped?: () => Promise<void>;
}

/** What a view shows that can change: when it is unchanged, nothing is pushed. */
function fingerprint(view: AccountView | undefined): string {
  if (!view) return '';
  const { figures, status, open } = view;
  return [
    figures.balanceCents,
    figures.equityCents,
    figures.usedMarginCents,
    figures.depositsCents,
    status.idleReason,
    ...open.map(
      (position) => `${position.trade.positionId}=${String(position.unrealisedProfitCents)}`,
    ),
  ].join(' ');
}

/**
 * The robot's side of the facade (decision 046): runs a RobotCore and answers the main thread's
 * requests on a port. Engine events and closures stored go out in batches, one per turn of the
 * event loop, and always before the next answer, so that the main thread sees every change an
 * answer may depend on first. The views of the accounts the main thread reads (`view` with
 * `watch`) are pushed every `mirrorMs` when they changed, so that its reads are served from
 * memory without waiting for this thread.
 */
export class RobotHost {
  private drivenNow: number;
  private pendingEvents: ForwardedEvent[] = [];
  private closuresStored: string[] = [];
  private flushScheduled = false;
  /** Watched accounts, with the fingerprint of the view last sent. */
  private readonly watched = new Map<string, string>();
  private mirrorTimer: NodeJS.Timeout | undefined;
  private core: RobotCore | undefined;
  private stopping: Promise<void> | undefined;

  private constructor(
    private readonly port: HostPort,
    private readonly options: RobotHostOptions,
    private readonly extras: RobotHostExtras,
  ) {
    this.drivenNow = options.clock.kind === 'driven' ? options.clock.now : 0;
  }

  /** Starts the robot and tells the main thread it is ready. */
  static async start(
    port: HostPort,
    options: RobotHostOptions,
    db: Db,
    extras: RobotHostExtras = {},
  ): Promise<RobotHost> {
    const host = new RobotHost(port, options, extras);
    const { clock } = options;
    const now =
      clock.kind === 'wall'
        ? () => clock.origin + (Date.now() - clock.wallOrigin) * clock.speed
        : () => host.drivenNow;
    const core = await RobotCore.start({
      db,
      now,
      marketTickMs: options.marketTickMs,
      marketSeed: options.marketSeed,
      autoAdvance: options.autoAdvance,
      quoteSaveMs: options.quoteSaveMs,
      warmUpMs: options.warmUpMs,
      ...(extras.strategy ? { strategy: extras.strategy } : {}),
      onError: (error, what) => {
        port.postMessage({
          type: 'failure',
          what,
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      },
      onClosureStored: (accountId) => {
        host.closuresStored.push(accountId);
        host.scheduleFlush();
      },
    });
    host.core = core;
    for (const type of forwardedEventTypes) {
      core.events.on(type, (event) => {
        host.pendingEvents.push(event);
        host.scheduleFlush();
      });
    }
    if (options.mirrorMs > 0) {
      host.mirrorTimer = setInterval(() => {
        host.pushViews();
      }, options.mirrorMs);
      host.mirrorTimer.unref();
    }
    port.on('message', (message) => {
      host.receive(message);
    });
    port.postMessage({
      type: 'ready',
      accountIds: core.accountIds(),
      openCounts: core.openCounts(),
    });
    return host;
  }

  private receive(message: ClientMessage): void {
    if (message.op === 'unwatch') {
      for (const accountId of message.accountIds) this.watched.delete(accountId);
      return;
    }
    if (this.options.clock.kind === 'driven') this.drivenNow = message.now;
    if (message.op === 'view' && this.core && !this.stopping) {
      // Answered in the same step it is read in: no event can come between the two.
      const view = this.core.view(message.accountId);
      if (message.watch) this.watched.set(message.accountId, fingerprint(view));
      this.flushChanges();
      this.port.postMessage({ type: 'answer', id: message.id, value: view ?? null });
      return;
    }
    this.handle(message).then(
      (value) => {
        this.flushChanges();
        this.port.postMessage({ type: 'answer', id: message.id, value });
      },
      (error: unknown) => {
        this.flushChanges();
        this.port.postMessage({
          type: 'refusal',
          id: message.id,
          message: error instanceof Error ? error.message : String(error),
        });
      },
    );
  }

  private async handle(
    request: RobotRequest,
  ): Promise<RobotOperations[RobotRequest['op']]['answer']> {
    const core = this.core;
    if (!core || (this.stopping && request.op !== 'stop')) {
      throw new Error('the robot has stopped');
    }
    switch (request.op) {
      case 'openAccount':
        await core.openAccount(request.accountId, request.depositCents);
        return undefined;
      case 'deposit':
        await core.deposit(request.accountId, request.cents);
        return undefined;
      case 'applySettings':
        core.applySettings(request.accountId, request.settings);
        return undefined;
      case 'closeAllPositions':
        return core.closeAllPositions(request.accountId);
      case 'view':
        // Answered in `receive`, except when the robot has stopped.
        throw new Error('the robot has stopped');
      case 'settled':
        await core.settled();
        return undefined;
      case 'advance':
        core.advance();
        return undefined;
      case 'snapshot':
        return core.snapshot();
      case 'stop':
        this.stopping ??= this.stop(core);
        await this.stopping;
        return undefined;
    }
  }

  private async stop(core: RobotCore): Promise<void> {
    clearInterval(this.mirrorTimer);
    await core.stop();
    await this.extras.onStopped?.();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushChanges();
    });
  }

  private flushChanges(): void {
    this.flushScheduled = false;
    if (this.pendingEvents.length === 0 && this.closuresStored.length === 0) return;
    this.port.postMessage({
      type: 'changes',
      events: this.pendingEvents,
      closuresStored: this.closuresStored,
    });
    this.pendingEvents = [];
    this.closuresStored = [];
  }

  /** The watched accounts whose view changed since it was last sent. */
  private pushViews(): void {
    const core = this.core;
    if (!core || this.watched.size === 0) return;
    const views: [string, AccountView][] = [];
    for (const [accountId, sent] of this.watched) {
      const view = core.view(accountId);
      const now = fingerprint(view);
      if (now === sent || !view) continue;
      this.watched.set(accountId, now);
      views.push([accountId, view]);
    }
    if (views.length === 0) return;
    this.flushChanges();
    this.port.postMessage({ type: 'views', views });
  }
}
