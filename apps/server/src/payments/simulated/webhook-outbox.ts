import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import { backoffDelay } from '@tradebot/robot';
import type { Db } from '../../db/database';
import { simPayEvents } from '../../db/schema';
import type { Clock } from '../../repositories/clock';
import type { JobClaims } from '../../repositories/job-claims.repository';
import { signWebhook, simulatedSignatureHeader } from './webhook-signature';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const hourMs = 3_600_000;
/** Webhook deliveries: 1 s, 2 s, 4 s, ... capped at an hour, 30 attempts (about a day). */
const deliveryAttempts = 30;
const deliveryBackoffCapMs = hourMs;
const deliveryTimeoutMs = 10_000;
/** The claims' name for one delivery attempt of one event. */
export const webhookDeliveryJob = 'simpay.webhook';

/** `cs_sim_…`, `ch_sim_…`, `evt_sim_…`: the simulated provider's object ids. */
export const newSimulatedId = (prefix: string) =>
  `${prefix}_sim_${randomBytes(12).toString('base64url')}`;

/** POSTs a webhook and resolves the answer's HTTP status (0 when none came). */
export type WebhookTransport = (
  url: string,
  body: string,
  headers: Record<string, string>,
) => Promise<number>;

export const fetchTransport: WebhookTransport = async (url, body, headers) => {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(deliveryTimeoutMs),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
};

/** What a failed delivery tells the log: ids and numbers only, never the body or signature. */
export interface DeliveryRetry {
  eventId: string;
  type: string;
  attempts: number;
  status: number;
  nextAttemptAt: Date | null;
}

export interface WebhookOutboxOptions {
  db: Db;
  clock: Clock;
  /** The webhook signing secret, shared with our receiver. */
  secret: string;
  /** Our webhook's address, read at each delivery: undefined until the server listens. */
  webhookUrl: () => string | undefined;
  transport?: WebhookTransport;
  /**
   * Who delivers an event: each attempt is claimed first, so with several processes on one
   * database it is sent by one of them (decision 078).
   */
  claims: JobClaims;
  /**
   * Deliver as soon as an event is recorded: off in tests. The retries run on billing's job
   * (`payment-webhooks`, capabilities/billing/plugin.ts), with the same switch.
   */
  autoDeliver: boolean;
  onError: (error: unknown, what: string) => void;
  /** A delivery that failed and will be tried again (or given up: `nextAttemptAt` null). */
  onRetry?: (retry: DeliveryRetry) => void;
}

/**
 * The simulated provider's outbox (decision 047): every event for our webhook is recorded in
 * the transaction of what it reports (`sim_pay_events`), then delivered signed, each attempt
 * under a claim (decision 078), and retried with backoff until our endpoint answers 2xx.
 */
export class SimulatedWebhookOutbox {
  private readonly transport: WebhookTransport;
  private delivering: Promise<void> | undefined;
  private deliverAgain = false;
  private stopped = false;

  constructor(private readonly options: WebhookOutboxOptions) {
    this.transport = options.transport ?? fetchTransport;
  }

  private now(): Date {
    return this.options.clock.now();
  }

  /** No delivery starts after this; resolves once the one under way is over. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.delivering;
  }

  /** An event for our webhook, in the outbox, in the same transaction as what it reports. */
  async record(tx: Tx, type: string, object: { id: string; subscription: string }): Promise<void> {
    const now = this.now();
    const id = newSimulatedId('evt');
    await tx.insert(simPayEvents).values({
      id,
      type,
      payload: {
        id,
        object: 'event',
        type,
        created: Math.floor(now.getTime() / 1000),
        data: { object },
      },
      createdAt: now,
      nextAttemptAt: now,
    });
  }

  /** Delivers soon, after the transaction that recorded an event has committed. */
  kick(): void {
    if (this.options.autoDeliver && !this.stopped) {
      setImmediate(() => {
        void this.deliverDue();
      });
    }
  }

  /** Sends every due event to our webhook; a failed answer is retried later, with backoff. */
  deliverDue(): Promise<void> {
    if (this.delivering) {
      this.deliverAgain = true;
      return this.delivering;
    }
    this.delivering = (async () => {
      for (;;) {
        this.deliverAgain = false;
        await this.deliverBatch();
        if (!this.moreToDeliver()) break;
      }
    })()
      .catch((error: unknown) => {
        this.options.onError(error, 'delivering simulated payment webhooks');
      })
      .finally(() => {
        this.delivering = undefined;
      });
    return this.delivering;
  }

  /** Another delivery was asked for while one ran. */
  private moreToDeliver(): boolean {
    return this.deliverAgain && !this.stopped;
  }

  private async deliverBatch(): Promise<void> {
    const url = this.options.webhookUrl();
    if (!url) return;
    const due = await this.options.db
      .select()
      .from(simPayEvents)
      .where(
        and(
          isNull(simPayEvents.deliveredAt),
          isNotNull(simPayEvents.nextAttemptAt),
          lte(simPayEvents.nextAttemptAt, this.now()),
        ),
      )
      .orderBy(asc(simPayEvents.sequence))
      .limit(100);
    for (const event of due) {
      if (this.stopped) return;
      // One attempt, one claim: another process that listed the same attempt finds it taken
      // (or finished), and the next attempt is an item of its own.
      const claim = await this.options.claims.claim(
        webhookDeliveryJob,
        `${event.id}:${String(event.attempts)}`,
      );
      if (!claim) continue;
      const body = JSON.stringify(event.payload);
      const signature = signWebhook(
        this.options.secret,
        body,
        Math.floor(this.now().getTime() / 1000),
      );
      const status = await this.transport(url, body, { [simulatedSignatureHeader]: signature });
      const now = this.now();
      if (status >= 200 && status < 300) {
        await this.options.db
          .update(simPayEvents)
          .set({ deliveredAt: now, attempts: event.attempts + 1, lastStatus: status })
          .where(eq(simPayEvents.id, event.id));
        await claim.finish();
        continue;
      }
      const attempts = event.attempts + 1;
      const delay = backoffDelay(attempts - 1, { firstMs: 1000, capMs: deliveryBackoffCapMs });
      const nextAttemptAt = attempts >= deliveryAttempts ? null : new Date(now.getTime() + delay);
      await this.options.db
        .update(simPayEvents)
        .set({ attempts, lastStatus: status, nextAttemptAt })
        .where(eq(simPayEvents.id, event.id));
      await claim.finish();
      this.options.onRetry?.({
        eventId: event.id,
        type: event.type,
        attempts,
        status,
        nextAttemptAt,
      });
    }
  }
}
