import net from 'node:net';
import tls from 'node:tls';
import { backoffDelay } from '../../time/backoff';
import { frame, FrameReader } from './framing';
import { CTraderProtocol, type DecodedMessage, type MessageBody } from './protocol';
import { SlidingWindowQueue } from './rate-limiter';
import type { CTraderError } from './errors';
import { CTraderConnectionError, CTraderTokenError, fromErrorCode } from './errors';

/**
 * A cTrader Open API connection (protobuf over TCP, decision 076): framing, request/response
 * correlation by clientMsgId, heartbeats, application and account authorisation, typed errors,
 * the API's rate limits as queues, and reconnection with backoff that authorises the accounts and
 * subscribes their spots again before it says it is ready.
 */

export interface CTraderClientOptions {
  readonly host: string;
  readonly port: number;
  /** TLS, as the real endpoints require. Plain TCP only for the local fake (tests). */
  readonly tls: boolean;
  readonly tlsOptions?: tls.ConnectionOptions;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly protocol?: CTraderProtocol;
  /**
   * How often a heartbeat is sent. After one silent interval a request probes the connection;
   * after three it is dropped and reconnected.
   */
  readonly heartbeatIntervalMs?: number;
  readonly requestTimeoutMs?: number;
  readonly backoffInitialMs?: number;
  readonly backoffMaxMs?: number;
  /** The API allows 50 requests a second per connection, 5 for historical data. */
  readonly requestsPerSecond?: number;
  readonly historicalRequestsPerSecond?: number;
  /** Added to the rate limits' second, for requests delayed on the way (100 ms by default). */
  readonly rateWindowMarginMs?: number;
}

export type ConnectionState = 'connecting' | 'ready' | 'disconnected' | 'closed';

export interface StateChange {
  readonly state: ConnectionState;
  /** True for `ready` after a dropped connection: the caller reconciles. */
  readonly reconnected: boolean;
  readonly error?: Error;
}

/** Requests the API counts against its historical-data limit. */
export const HISTORICAL_REQUESTS: ReadonlySet<string> = new Set([
  'ProtoOAGetTrendbarsReq',
  'ProtoOAGetTickDataReq',
  'ProtoOADealListReq',
  'ProtoOADealListByPositionIdReq',
  'ProtoOAOrderListReq',
  'ProtoOAOrderListByPositionIdReq',
  'ProtoOACashFlowHistoryListReq',
]);

const ERROR_MESSAGES = new Set(['ProtoOAErrorRes', 'ProtoErrorRes', 'ProtoOAOrderErrorEvent']);

interface Pending {
  readonly name: string;
  readonly resolve: (message: DecodedMessage) => void;
  readonly reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  sent: boolean;
}

export class CTraderClient {
  readonly protocol: CTraderProtocol;
  private socket: net.Socket | undefined;
  private stateNow: ConnectionState = 'closed';
  private everReady = false;
  private closing = false;
  private nextId = 0;
  private readonly pending = new Map<string, Pending>();
  private readonly queue: SlidingWindowQueue;
  private readonly historicalQueue: SlidingWindowQueue;
  private readonly accounts = new Map<number, string>();
  private readonly spots = new Map<number, Set<number>>();
  private readonly eventListeners = new Set<(message: DecodedMessage) => void>();
  private readonly stateListeners = new Set<(change: StateChange) => void>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private lastReceived = 0;
  private attempt = 0;

  constructor(private readonly options: CTraderClientOptions) {
    this.protocol = options.protocol ?? CTraderProtocol.load();
    const window = 1000 + (options.rateWindowMarginMs ?? 100);
    this.queue = new SlidingWindowQueue(options.requestsPerSecond ?? 50, window);
    this.historicalQueue = new SlidingWindowQueue(options.historicalRequestsPerSecond ?? 5, window);
  }

  get state(): ConnectionState {
    return this.stateNow;
  }

  /** Connects and authorises the application; later drops reconnect on their own. */
  async connect(): Promise<void> {
    this.closing = false;
    await this.open();
  }

  /** Authorises a trading account with its access token; remembered for reconnections. */
  async authorizeAccount(accountId: number, accessToken: string): Promise<void> {
    await this.request('ProtoOAAccountAuthReq', { ctidTraderAccountId: accountId, accessToken });
    this.accounts.set(accountId, accessToken);
  }

  /**
   * Keeps a refreshed access token for the next authorisation of the account (after a
   * reconnection); the current connection's authorisation stays valid.
   */
  replaceAccessToken(accountId: number, accessToken: string): void {
    if (this.accounts.has(accountId)) this.accounts.set(accountId, accessToken);
  }

  forgetAccount(accountId: number): void {
    this.accounts.delete(accountId);
    this.spots.delete(accountId);
  }

  /** Subscribes to spots; remembered, and subscribed again after a reconnection. */
  async subscribeSpots(accountId: number, symbolIds: readonly number[]): Promise<void> {
    const fresh = symbolIds.filter((id) => !this.spots.get(accountId)?.has(id));
    if (fresh.length === 0) return;
    await this.request('ProtoOASubscribeSpotsReq', {
      ctidTraderAccountId: accountId,
      symbolId: fresh,
    });
    const set = this.spots.get(accountId) ?? new Set<number>();
    for (const id of fresh) set.add(id);
    this.spots.set(accountId, set);
  }

  /** Sends a request and resolves with the message that answers it (same clientMsgId). */
  request(name: string, body: MessageBody): Promise<DecodedMessage> {
    if (this.stateNow !== 'ready') {
      return Promise.reject(
        new CTraderConnectionError({ code: 'NOT_CONNECTED', description: `${name} not sent` }),
      );
    }
    return this.send(name, body);
  }

  onEvent(listener: (message: DecodedMessage) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onState(listener: (change: StateChange) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Closes for good: no reconnection; pending requests fail. */
  close(): void {
    this.closing = true;
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.teardown(new CTraderConnectionError({ code: 'CLOSED', description: 'client closed' }));
    this.setState({ state: 'closed', reconnected: false });
  }

  private async open(): Promise<void> {
    this.setState({ state: 'connecting', reconnected: false });
    const socket = await this.dial();
    this.socket = socket;
    this.lastReceived = performance.now();
    const reader = new FrameReader();
    socket.on('data', (chunk: Buffer) => {
      this.lastReceived = performance.now();
      let frames: Buffer[];
      try {
        frames = reader.push(chunk);
      } catch (error) {
        socket.destroy(error as Error);
        return;
      }
      for (const bytes of frames) this.receive(bytes);
    });
    socket.on('error', () => {
      // 'close' follows and handles it.
    });
    socket.on('close', () => {
      this.dropped(socket);
    });
    this.startHeartbeat(socket);
    try {
      await this.send('ProtoOAApplicationAuthReq', {
        clientId: this.options.clientId,
        clientSecret: this.options.clientSecret,
      });
      const reconnected = this.everReady;
      for (const [accountId, accessToken] of [...this.accounts]) {
        try {
          await this.send('ProtoOAAccountAuthReq', { ctidTraderAccountId: accountId, accessToken });
        } catch (error) {
          if (!(error instanceof CTraderTokenError)) throw error;
          // The grant is gone: the account stays out until the user authorises it again.
          this.accounts.delete(accountId);
          this.spots.delete(accountId);
          const name = 'ProtoOAAccountsTokenInvalidatedEvent';
          this.emit({
            name,
            payloadType: this.protocol.payloadType(name),
            body: { ctidTraderAccountIds: [accountId], reason: error.code },
            clientMsgId: undefined,
          });
        }
      }
      for (const [accountId, symbols] of this.spots) {
        if (symbols.size === 0) continue;
        await this.send('ProtoOASubscribeSpotsReq', {
          ctidTraderAccountId: accountId,
          symbolId: [...symbols],
        });
      }
      this.attempt = 0;
      this.everReady = true;
      this.setState({ state: 'ready', reconnected });
    } catch (error) {
      socket.destroy();
      throw error;
    }
  }

  private dial(): Promise<net.Socket> {
    const { host, port } = this.options;
    return new Promise((resolve, reject) => {
      const socket = this.options.tls
        ? tls.connect({ host, port, servername: host, ...this.options.tlsOptions })
        : net.connect({ host, port });
      socket.setNoDelay(true);
      const ready = this.options.tls ? 'secureConnect' : 'connect';
      const fail = (error: Error): void => {
        socket.destroy();
        reject(new CTraderConnectionError({ code: 'CONNECT_FAILED', description: error.message }));
      };
      socket.once('error', fail);
      socket.once(ready, () => {
        socket.off('error', fail);
        resolve(socket);
      });
    });
  }

  private startHeartbeat(socket: net.Socket): void {
    const interval = this.options.heartbeatIntervalMs ?? 10_000;
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      const silent = performance.now() - this.lastReceived;
      if (silent > 3 * interval) {
        // A half-open connection: nothing came back, not even the answer to a probe.
        socket.destroy(new Error('no message from cTrader in three heartbeat intervals'));
        return;
      }
      socket.write(frame(this.protocol.encode('ProtoHeartbeatEvent', {})));
      // The server need not send anything on a quiet connection (a weekend, no spots): a
      // request it must answer tells a quiet connection from a dead one.
      if (silent > interval && this.stateNow === 'ready') {
        this.send('ProtoOAVersionReq', {}).catch(() => undefined);
      }
    }, interval);
  }

  private send(name: string, body: MessageBody): Promise<DecodedMessage> {
    const clientMsgId = `m${++this.nextId}`;
    const bytes = frame(this.protocol.encode(name, body, clientMsgId));
    return new Promise<DecodedMessage>((resolve, reject) => {
      const entry: Pending = { name, resolve, reject, timer: undefined, sent: false };
      this.pending.set(clientMsgId, entry);
      const queue = HISTORICAL_REQUESTS.has(name) ? this.historicalQueue : this.queue;
      queue.schedule(() => {
        const socket = this.socket;
        if (this.pending.get(clientMsgId) !== entry) return;
        if (socket === undefined || socket.destroyed) {
          this.settle(clientMsgId, undefined, this.lost(name, false));
          return;
        }
        entry.sent = true;
        socket.write(bytes);
        entry.timer = setTimeout(() => {
          this.settle(clientMsgId, undefined, this.lost(name, true, 'TIMEOUT'));
        }, this.options.requestTimeoutMs ?? 15_000);
      });
    });
  }

  private lost(
    name: string,
    maybeDelivered: boolean,
    code = 'DISCONNECTED',
  ): CTraderConnectionError {
    const description = maybeDelivered
      ? `${name}: no answer, its outcome is unknown`
      : `${name}: not sent`;
    return new CTraderConnectionError({ code, description }, maybeDelivered);
  }

  private receive(bytes: Buffer): void {
    let message: DecodedMessage;
    try {
      message = this.protocol.decode(bytes);
    } catch {
      this.socket?.destroy(new Error('undecodable cTrader message'));
      return;
    }
    if (message.name === 'ProtoHeartbeatEvent') return;
    if (message.clientMsgId !== undefined && this.pending.has(message.clientMsgId)) {
      const error = ERROR_MESSAGES.has(message.name) ? this.toError(message.body) : undefined;
      this.settle(message.clientMsgId, message, error);
    }
    if (message.name === 'ProtoOAAccountsTokenInvalidatedEvent') {
      const ids = message.body.ctidTraderAccountIds as number[] | undefined;
      for (const id of ids ?? []) this.forgetAccount(id);
    }
    if (message.name.endsWith('Event')) this.emit(message);
  }

  private toError(body: MessageBody): CTraderError {
    const maintenance = body.maintenanceEndTimestamp as number | undefined;
    return fromErrorCode({
      code: typeof body.errorCode === 'string' ? body.errorCode : 'UNKNOWN_ERROR',
      description: body.description as string | undefined,
      accountId: body.ctidTraderAccountId as number | undefined,
      // ProtoOAErrorRes gives seconds, ProtoErrorRes milliseconds.
      maintenanceEndsAt:
        maintenance === undefined
          ? undefined
          : maintenance < 1e11
            ? maintenance * 1000
            : maintenance,
      retryAfterSeconds: body.retryAfter as number | undefined,
    });
  }

  private settle(clientMsgId: string, message: DecodedMessage | undefined, error?: Error): void {
    const entry = this.pending.get(clientMsgId);
    if (entry === undefined) return;
    this.pending.delete(clientMsgId);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    if (error !== undefined) entry.reject(error);
    else if (message !== undefined) entry.resolve(message);
  }

  private emit(message: DecodedMessage): void {
    for (const listener of this.eventListeners) listener(message);
  }

  private setState(change: StateChange): void {
    this.stateNow = change.state;
    for (const listener of this.stateListeners) listener(change);
  }

  private teardown(error: CTraderConnectionError): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.queue.clear();
    this.historicalQueue.clear();
    const socket = this.socket;
    this.socket = undefined;
    socket?.destroy();
    for (const [clientMsgId, entry] of [...this.pending]) {
      this.settle(clientMsgId, undefined, this.lost(entry.name, entry.sent, error.code));
    }
  }

  private dropped(socket: net.Socket): void {
    if (socket !== this.socket) return;
    this.teardown(new CTraderConnectionError({ code: 'DISCONNECTED' }));
    if (this.closing) return;
    this.setState({ state: 'disconnected', reconnected: false });
    if (this.everReady) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closing || this.reconnectTimer !== undefined) return;
    // Full jitter, so that many robots do not reconnect in step.
    const delay = backoffDelay(this.attempt, {
      firstMs: this.options.backoffInitialMs ?? 250,
      capMs: this.options.backoffMaxMs ?? 30_000,
      jitter: true,
    });
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.open().catch((error: unknown) => {
        if (this.closing) return;
        this.setState({ state: 'disconnected', reconnected: false, error: error as Error });
        this.scheduleReconnect();
      });
    }, delay);
  }
}
