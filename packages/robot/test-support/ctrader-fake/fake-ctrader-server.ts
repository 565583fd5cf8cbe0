import net from 'node:net';
import { HISTORICAL_REQUESTS } from '../../src/broker/ctrader/client';
import { frame, FrameReader } from '../../src/broker/ctrader/framing';
import {
  CTraderProtocol,
  type DecodedMessage,
  type MessageBody,
} from '../../src/broker/ctrader/protocol';
import { brokerSession, type BrokerHours } from '../../src/broker/ctrader/schedule';

/**
 * A local stand-in for a cTrader Open API server, for tests: plain TCP on 127.0.0.1, the same
 * framing and the same .proto definitions as the real one (decision 077). It keeps accounts,
 * symbols, prices, positions and deals in memory and answers as the documentation says the real
 * server does; tests steer it (prices, token expiry, closures, dropped connections) through its
 * methods, never through the client under test.
 */

export interface FakeSymbol {
  readonly symbolId: number;
  readonly symbolName: string;
  readonly digits: number;
  readonly pipPosition: number;
  /** In cents of a unit, as the API counts volume (10_000_000 = 100,000 units). */
  readonly lotSize: number;
  readonly minVolume: number;
  readonly stepVolume: number;
  readonly maxVolume: number;
  readonly bid: number;
  readonly ask: number;
  /**
   * The symbol's sessions and holidays, served in ProtoOASymbol and enforced on orders
   * (default: every second of the week, in UTC, no holiday).
   */
  readonly hours?: BrokerHours;
  /**
   * The symbol's commission as ProtoOASymbol states it. The fake charges it only in the common
   * case, USD per million on a dollar account: on each side, the opening side unrealised on the
   * open position, both realised with the closing deal; any other form it lists and charges none.
   * `commissionType`, `preciseTradingCommissionRate` and optionally `preciseMinCommission`,
   * `minCommissionType`, `minCommissionAsset`, or the deprecated `commission` alone.
   */
  readonly commission?: Readonly<Record<string, string | number>>;
  /** The symbol's dynamic leverage (ProtoOASymbol.leverageId), one of the options' leverages. */
  readonly leverageId?: number;
}

/** A dynamic leverage as ProtoOAGetDynamicLeverageByIDRes serves it (decision 102). */
export interface FakeDynamicLeverage {
  readonly leverageId: number;
  /** Sorted by volume: up to `volume` USD cents of position notional per side, `leverage`. */
  readonly tiers: readonly { readonly volume: number; readonly leverage: number }[];
}

/** Every second of the week, in UTC, no holiday: what a symbol with no `hours` trades. */
export const ALWAYS_OPEN: BrokerHours = {
  timeZone: 'UTC',
  intervals: [{ startSecond: 0, endSecond: 7 * 86_400 }],
  holidays: [],
};

/** An asset (a currency, a metal) as the broker lists it; symbols name theirs by letters. */
export interface FakeAsset {
  readonly assetId: number;
  readonly name: string;
  readonly digits: number;
}

/**
 * The fake's assets: 15 is USD, as on the real demo servers; a symbol's base and quote are the
 * first three letters of its name and the rest, and an asset no list names gets an id of its own.
 */
export const FAKE_ASSETS: readonly FakeAsset[] = [
  { assetId: 15, name: 'USD', digits: 2 },
  { assetId: 3, name: 'EUR', digits: 2 },
  { assetId: 22, name: 'BRL', digits: 2 },
];

export interface FakeAccount {
  readonly ctidTraderAccountId: number;
  readonly accessToken: string;
  readonly isLive: boolean;
  readonly traderLogin: number;
  readonly brokerName: string;
  /** Balance in the account's money units, i.e. multiplied by 10^moneyDigits. */
  readonly balance: number;
  readonly moneyDigits: number;
  readonly leverageInCents: number;
  readonly depositAssetId: number;
}

export interface FakeCTraderOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly accounts: readonly FakeAccount[];
  readonly symbols: readonly FakeSymbol[];
  /** The broker's asset list (default FAKE_ASSETS). */
  readonly assets?: readonly FakeAsset[];
  readonly protocol?: CTraderProtocol;
  /** Requests a connection may make in one second before REQUEST_FREQUENCY_EXCEEDED. */
  readonly requestsPerSecond?: number;
  /** The same for historical data (orders, deals, bars), counted apart, as Spotware does. */
  readonly historicalRequestsPerSecond?: number;
  /** How often the server sends its own heartbeat (0: never). */
  readonly heartbeatIntervalMs?: number;
  /** Quotes kept per symbol for tick-data requests, the oldest dropped first (default 100,000). */
  readonly tickHistoryLimit?: number;
  /**
   * Ticks one ProtoOAGetTickDataRes carries before it says hasMore (default 5,000; Spotware
   * documents no figure).
   */
  readonly tickDataChunkSize?: number;
  /** The dynamic leverages the symbols name (default none); others are refused. */
  readonly leverages?: readonly FakeDynamicLeverage[];
}

export interface FakePosition {
  readonly positionId: number;
  readonly accountId: number;
  readonly symbolId: number;
  readonly side: 'BUY' | 'SELL';
  readonly volume: number;
  readonly price: number;
  readonly stopLoss: number;
  readonly takeProfit: number;
  readonly usedMargin: number;
  readonly label: string | undefined;
  readonly clientOrderId: string | undefined;
  readonly orderId: number;
  readonly openTimestamp: number;
}

export interface FakeOrderRecord {
  readonly orderId: number;
  readonly accountId: number;
  readonly clientOrderId: string | undefined;
  readonly body: MessageBody;
}

/** What to do with the next order: drop the connection before or after executing it. */
/**
 * What goes wrong with the next order: the connection drops before or after the broker executed
 * it; it fills in two parts (half, then the rest); or half fills and the rest is cancelled (the
 * liquidity provider had no more), leaving a position of half the volume.
 */
export type OrderFault =
  'drop-before-execution' | 'drop-after-execution' | 'fill-in-parts' | 'part-then-cancel';

interface Session {
  readonly socket: net.Socket;
  applicationAuthorised: boolean;
  readonly accounts: Set<number>;
  readonly spots: Map<number, Set<number>>;
  readonly sentAt: number[];
  readonly historicalSentAt: number[];
}

interface AccountState {
  readonly account: FakeAccount;
  balance: number;
  token: string;
  tokenValid: boolean;
}

interface SymbolState {
  readonly spec: FakeSymbol;
  bid: number;
  ask: number;
  /** The prices it quoted, oldest first, bounded (tickHistoryLimit). */
  readonly quoted: FakeQuote[];
  /** Each side's moves in `quoted`, worked out at the first tick-data request after a change. */
  moves?: Partial<Record<'bid' | 'ask', { time: number; price: number }[]>>;
  readonly baseAssetId: number;
  readonly quoteAssetId: number;
  hours: BrokerHours;
}

/** A price the fake quoted, at a time (Unix milliseconds). */
export interface FakeQuote {
  readonly time: number;
  readonly bid: number;
  readonly ask: number;
}

interface Deal {
  readonly body: MessageBody;
  readonly accountId: number;
  readonly executionTimestamp: number;
}

const PRICE_SCALE = 100_000;

export class FakeCTraderServer {
  readonly protocol: CTraderProtocol;
  /** Every request received, in order, by name (heartbeats excluded). */
  readonly received: DecodedMessage[] = [];
  readonly orders: FakeOrderRecord[] = [];
  heartbeatsReceived = 0;
  private readonly server: net.Server;
  private readonly sessions = new Set<Session>();
  private readonly accounts = new Map<number, AccountState>();
  private readonly symbols = new Map<number, SymbolState>();
  private readonly assets: FakeAsset[];
  private readonly positions = new Map<number, FakePosition>();
  private readonly deals: Deal[] = [];
  /** Executed orders, opening and closing, for ProtoOAOrderListReq. */
  private readonly history: { accountId: number; timestamp: number; body: MessageBody }[] = [];
  private nextId = 1000;
  private marketOpen = true;
  private mute = false;
  /** Tick-data answers wait for this while set (holdTickData). */
  private tickDataHeld: Promise<void> | undefined;
  private orderFault: OrderFault | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly options: FakeCTraderOptions) {
    this.protocol = options.protocol ?? CTraderProtocol.load();
    for (const account of options.accounts) {
      this.accounts.set(account.ctidTraderAccountId, {
        account,
        balance: account.balance,
        token: account.accessToken,
        tokenValid: true,
      });
    }
    this.assets = [...(options.assets ?? FAKE_ASSETS)];
    for (const spec of options.symbols) {
      const letters = spec.symbolName.replace(/[^A-Z]/gi, '').toUpperCase();
      this.symbols.set(spec.symbolId, {
        spec,
        bid: spec.bid,
        ask: spec.ask,
        quoted: [{ time: Date.now(), bid: spec.bid, ask: spec.ask }],
        baseAssetId: this.assetId(letters.slice(0, 3)),
        quoteAssetId: this.assetId(letters.slice(3)),
        hours: spec.hours ?? ALWAYS_OPEN,
      });
    }
    this.server = net.createServer((socket) => {
      this.accept(socket);
    });
  }

  /** Listens on 127.0.0.1, on `port` (a free one by default). */
  async listen(port = 0): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    const interval = this.options.heartbeatIntervalMs ?? 0;
    if (interval > 0) {
      this.heartbeat = setInterval(() => {
        for (const session of this.sessions) this.write(session, 'ProtoHeartbeatEvent', {});
      }, interval);
    }
    return this.port;
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string')
      throw new Error('fake cTrader not listening');
    return address.port;
  }

  get connections(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    for (const session of this.sessions) session.socket.destroy();
    await new Promise<void>((resolve) =>
      this.server.close(() => {
        resolve();
      }),
    );
  }

  /**
   * Holds the answers to tick-data requests (a slow history read) until the function returned
   * is called; calling it again does nothing.
   */
  holdTickData(): () => void {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.tickDataHeld = held;
    return () => {
      if (this.tickDataHeld === held) this.tickDataHeld = undefined;
      release();
    };
  }

  /** Drops every connection, as a network fault would. */
  dropConnections(): void {
    for (const session of this.sessions) session.socket.destroy();
  }

  /** Stops accepting connections until `resume` (a longer outage). */
  pause(): Promise<void> {
    this.dropConnections();
    return new Promise((resolve) =>
      this.server.close(() => {
        resolve();
      }),
    );
  }

  resume(port: number): Promise<void> {
    return new Promise((resolve) => this.server.listen(port, '127.0.0.1', resolve));
  }

  /** The connections stay open but nothing is answered any more (a half-open connection). */
  stopAnswering(): void {
    this.mute = true;
  }

  resumeAnswering(): void {
    this.mute = false;
  }

  setMarketOpen(open: boolean): void {
    this.marketOpen = open;
  }

  /**
   * The broker changes a symbol's sessions or holidays (a test closes a market now): sessions
   * holding an account are told by ProtoOASymbolChangedEvent, as the real server does.
   */
  setHours(symbolId: number, hours: BrokerHours): void {
    this.symbolOf(symbolId).hours = hours;
    for (const session of this.sessions) {
      for (const accountId of session.accounts) {
        this.write(session, 'ProtoOASymbolChangedEvent', {
          ctidTraderAccountId: accountId,
          symbolId: [symbolId],
        });
      }
    }
  }

  failNextOrder(fault: OrderFault): void {
    this.orderFault = fault;
  }

  openPositions(accountId: number): FakePosition[] {
    return [...this.positions.values()].filter((p) => p.accountId === accountId);
  }

  balance(accountId: number): number {
    return this.accountState(accountId).balance;
  }

  requests(name: string): DecodedMessage[] {
    return this.received.filter((message) => message.name === name);
  }

  /** A deposit (positive) or withdrawal at the broker, in money units; sessions are told. */
  depositOrWithdraw(accountId: number, delta: number): void {
    const state = this.accountState(accountId);
    state.balance += delta;
    const now = Date.now();
    this.broadcast(
      accountId,
      'ProtoOAExecutionEvent',
      {
        ctidTraderAccountId: accountId,
        executionType: 'DEPOSIT_WITHDRAW',
        depositWithdraw: {
          operationType: delta >= 0 ? 'BALANCE_DEPOSIT' : 'BALANCE_WITHDRAW',
          balanceHistoryId: ++this.nextId,
          balance: state.balance,
          delta: Math.abs(delta),
          changeBalanceTimestamp: now,
          moneyDigits: state.account.moneyDigits,
        },
      },
      undefined,
      undefined,
    );
  }

  /** The token expires: sessions holding the account are told, and it is refused from now on. */
  expireToken(accessToken: string): void {
    const ids: number[] = [];
    for (const state of this.accounts.values()) {
      if (state.token === accessToken) {
        state.tokenValid = false;
        ids.push(state.account.ctidTraderAccountId);
      }
    }
    for (const session of this.sessions) {
      const held = ids.filter((id) => session.accounts.has(id));
      if (held.length === 0) continue;
      for (const id of held) session.accounts.delete(id);
      this.write(session, 'ProtoOAAccountsTokenInvalidatedEvent', {
        ctidTraderAccountIds: held,
        reason: 'Access Token is expired',
      });
    }
  }

  /**
   * The OAuth server issued a new access token in place of `previous` (a refresh): the accounts
   * it opened now answer to the new one, and the old one is refused, as Spotware's are.
   */
  replaceToken(previous: string, next: string): void {
    for (const state of this.accounts.values()) {
      if (state.token === previous) {
        state.token = next;
        state.tokenValid = true;
      }
    }
  }

  /**
   * The user closes `volume` (cents of a unit) of a position at the market, in their own cTrader
   * application: the rest stays open. Sessions are told, as of any close.
   */
  closePart(positionId: number, volume: number): void {
    const position = this.positions.get(positionId);
    if (position === undefined) throw new Error(`fake cTrader: no position ${String(positionId)}`);
    const symbol = this.symbolOf(position.symbolId);
    this.closePosition(
      position,
      position.side === 'BUY' ? symbol.bid : symbol.ask,
      undefined,
      false,
      volume,
    );
  }

  /**
   * Prices the broker quoted in the past, before the test started: kept, in time order, for
   * tick-data requests only (no spot event; the current price stays).
   */
  pastPrices(symbolId: number, quotes: readonly FakeQuote[]): void {
    const symbol = this.symbolOf(symbolId);
    for (const quote of quotes) this.remember(symbol, quote);
    symbol.quoted.sort((a, b) => a.time - b.time);
    symbol.moves = undefined;
  }

  private remember(symbol: SymbolState, quote: FakeQuote): void {
    symbol.moves = undefined;
    symbol.quoted.push(quote);
    const limit = this.options.tickHistoryLimit ?? 100_000;
    if (symbol.quoted.length > limit) symbol.quoted.splice(0, symbol.quoted.length - limit);
  }

  /** A new price: subscribers get a spot event, then stops and limits are checked. */
  setPrice(symbolId: number, bid: number, ask: number): void {
    const symbol = this.symbols.get(symbolId);
    if (symbol === undefined) throw new Error(`fake cTrader: no symbol ${symbolId}`);
    symbol.bid = bid;
    symbol.ask = ask;
    this.remember(symbol, { time: Date.now(), bid, ask });
    for (const session of this.sessions) {
      for (const [accountId, ids] of session.spots) {
        if (!ids.has(symbolId)) continue;
        this.write(session, 'ProtoOASpotEvent', {
          ctidTraderAccountId: accountId,
          symbolId,
          bid: Math.round(bid * PRICE_SCALE),
          ask: Math.round(ask * PRICE_SCALE),
          timestamp: Date.now(),
        });
      }
    }
    for (const position of [...this.positions.values()]) {
      if (position.symbolId !== symbolId) continue;
      const exit = position.side === 'BUY' ? bid : ask;
      const hitTp =
        position.side === 'BUY' ? exit >= position.takeProfit : exit <= position.takeProfit;
      const hitSl = position.side === 'BUY' ? exit <= position.stopLoss : exit >= position.stopLoss;
      if (hitTp || hitSl)
        this.closePosition(
          position,
          hitTp ? position.takeProfit : position.stopLoss,
          undefined,
          true,
        );
    }
  }

  private accept(socket: net.Socket): void {
    socket.setNoDelay(true);
    const session: Session = {
      socket,
      applicationAuthorised: false,
      accounts: new Set(),
      spots: new Map(),
      sentAt: [],
      historicalSentAt: [],
    };
    this.sessions.add(session);
    const reader = new FrameReader();
    socket.on('data', (chunk: Buffer) => {
      for (const bytes of reader.push(chunk)) {
        if (socket.destroyed) return;
        this.handle(session, this.protocol.decode(bytes));
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => this.sessions.delete(session));
  }

  private write(session: Session, name: string, body: MessageBody, clientMsgId?: string): void {
    if (session.socket.destroyed || this.mute) return;
    session.socket.write(frame(this.protocol.encode(name, body, clientMsgId)));
  }

  private error(
    session: Session,
    request: DecodedMessage,
    code: string,
    description: string,
    accountId?: number,
  ): void {
    const body: MessageBody = { errorCode: code, description };
    if (accountId !== undefined) body.ctidTraderAccountId = accountId;
    this.write(session, 'ProtoOAErrorRes', body, request.clientMsgId);
  }

  private assetId(name: string): number {
    let asset = this.assets.find((known) => known.name === name);
    if (asset === undefined) {
      asset = { assetId: 1000 + this.assets.length, name, digits: 2 };
      this.assets.push(asset);
    }
    return asset.assetId;
  }

  /**
   * The shortest chain of symbols from one asset to another, as ProtoOASymbolsForConversionRes
   * lists it; empty when there is none.
   */
  private conversionChain(from: number, to: number): number[] {
    const previous = new Map<number, { asset: number; symbolId: number }>();
    const queue = [from];
    const seen = new Set(queue);
    for (let asset = queue.shift(); asset !== undefined; asset = queue.shift()) {
      if (asset === to) break;
      for (const [symbolId, symbol] of this.symbols) {
        const next =
          symbol.baseAssetId === asset
            ? symbol.quoteAssetId
            : symbol.quoteAssetId === asset
              ? symbol.baseAssetId
              : undefined;
        if (next === undefined || seen.has(next)) continue;
        seen.add(next);
        previous.set(next, { asset, symbolId });
        queue.push(next);
      }
    }
    const chain: number[] = [];
    for (let asset = to; asset !== from;) {
      const step = previous.get(asset);
      if (step === undefined) return [];
      chain.unshift(step.symbolId);
      asset = step.asset;
    }
    return chain;
  }

  /** One unit of the symbol's quote asset in the account's deposit asset, at the fake's mids. */
  private leverage(leverageId: number): FakeDynamicLeverage | undefined {
    return this.options.leverages?.find((leverage) => leverage.leverageId === leverageId);
  }

  /**
   * The leverage a new position takes: the lower of the account's and the tier its notional
   * (in the deposit currency, taken as USD) falls in; the account's for a symbol with none.
   */
  private leverageFor(account: FakeAccount, spec: FakeSymbol, notional: number): number {
    const own = account.leverageInCents / 100;
    const tiers = spec.leverageId === undefined ? undefined : this.leverage(spec.leverageId)?.tiers;
    if (tiers === undefined || tiers.length === 0) return own;
    const tier = tiers.find((t) => notional * 100 <= t.volume) ?? tiers[tiers.length - 1];
    return Math.min(own, tier?.leverage ?? own);
  }

  private depositPerQuote(account: FakeAccount, symbolId: number): number {
    let asset = this.symbolOf(symbolId).quoteAssetId;
    let value = 1;
    for (const id of this.conversionChain(asset, account.depositAssetId)) {
      const symbol = this.symbolOf(id);
      const mid = (symbol.bid + symbol.ask) / 2;
      value = symbol.baseAssetId === asset ? value * mid : value / mid;
      asset = symbol.baseAssetId === asset ? symbol.quoteAssetId : symbol.baseAssetId;
    }
    if (asset !== account.depositAssetId) throw new Error('fake cTrader: no conversion');
    return value;
  }

  private symbolOf(symbolId: number): SymbolState {
    const symbol = this.symbols.get(symbolId);
    if (symbol === undefined) throw new Error(`fake cTrader: no symbol ${symbolId}`);
    return symbol;
  }

  private accountState(accountId: number): AccountState {
    const state = this.accounts.get(accountId);
    if (state === undefined) throw new Error(`fake cTrader: no account ${accountId}`);
    return state;
  }

  private handle(session: Session, message: DecodedMessage): void {
    if (message.name === 'ProtoHeartbeatEvent') {
      this.heartbeatsReceived += 1;
      return;
    }
    this.received.push(message);
    const now = performance.now();
    const historical = HISTORICAL_REQUESTS.has(message.name);
    const sentAt = historical ? session.historicalSentAt : session.sentAt;
    while ((sentAt[0] ?? now) <= now - 1000) sentAt.shift();
    sentAt.push(now);
    const limit = historical
      ? (this.options.historicalRequestsPerSecond ?? 5)
      : (this.options.requestsPerSecond ?? 50);
    if (sentAt.length > limit) {
      this.error(session, message, 'REQUEST_FREQUENCY_EXCEEDED', 'Request frequency is reached');
      return;
    }
    const body = message.body;
    if (message.name === 'ProtoOAApplicationAuthReq') {
      if (
        body.clientId !== this.options.clientId ||
        body.clientSecret !== this.options.clientSecret
      ) {
        this.error(session, message, 'CH_CLIENT_AUTH_FAILURE', 'Wrong client credentials');
        return;
      }
      session.applicationAuthorised = true;
      this.write(session, 'ProtoOAApplicationAuthRes', {}, message.clientMsgId);
      return;
    }
    if (!session.applicationAuthorised) {
      this.error(session, message, 'CH_CLIENT_NOT_AUTHENTICATED', 'Application is not authorised');
      return;
    }
    if (message.name === 'ProtoOAVersionReq') {
      this.write(session, 'ProtoOAVersionRes', { version: '91' }, message.clientMsgId);
      return;
    }
    if (message.name === 'ProtoOAGetAccountListByAccessTokenReq') {
      const owned = [...this.accounts.values()].filter(
        (state) => state.token === body.accessToken && state.tokenValid,
      );
      if (owned.length === 0) {
        this.error(session, message, 'CH_ACCESS_TOKEN_INVALID', 'Access token is invalid');
        return;
      }
      this.write(
        session,
        'ProtoOAGetAccountListByAccessTokenRes',
        {
          accessToken: body.accessToken,
          permissionScope: 'SCOPE_TRADE',
          ctidTraderAccount: owned.map(({ account }) => ({
            ctidTraderAccountId: account.ctidTraderAccountId,
            isLive: account.isLive,
            traderLogin: account.traderLogin,
            brokerTitleShort: account.brokerName,
          })),
        },
        message.clientMsgId,
      );
      return;
    }
    if (message.name === 'ProtoOAAccountAuthReq') {
      const id = body.ctidTraderAccountId as number;
      const state = this.accounts.get(id);
      if (state === undefined) {
        this.error(
          session,
          message,
          'CH_CTID_TRADER_ACCOUNT_NOT_FOUND',
          'Trading account is not found',
          id,
        );
        return;
      }
      if (state.token !== body.accessToken) {
        this.error(session, message, 'CH_ACCESS_TOKEN_INVALID', 'Access token is invalid', id);
        return;
      }
      if (!state.tokenValid) {
        this.error(session, message, 'OA_AUTH_TOKEN_EXPIRED', 'Access token is expired', id);
        return;
      }
      session.accounts.add(id);
      this.write(
        session,
        'ProtoOAAccountAuthRes',
        { ctidTraderAccountId: id },
        message.clientMsgId,
      );
      return;
    }
    const accountId = body.ctidTraderAccountId as number | undefined;
    if (accountId === undefined || !session.accounts.has(accountId)) {
      this.error(
        session,
        message,
        'ACCOUNT_NOT_AUTHORIZED',
        'Account is not authorised',
        accountId,
      );
      return;
    }
    switch (message.name) {
      case 'ProtoOASymbolsListReq': {
        this.write(
          session,
          'ProtoOASymbolsListRes',
          {
            ctidTraderAccountId: accountId,
            symbol: [...this.symbols.values()].map((symbol) =>
              this.lightSymbol(symbol.spec.symbolId),
            ),
          },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOAGetDynamicLeverageByIDReq': {
        const leverage = this.leverage(Number(body.leverageId));
        if (leverage === undefined) {
          this.error(session, message, 'INVALID_REQUEST', 'Leverage not found', accountId);
          return;
        }
        this.write(
          session,
          'ProtoOAGetDynamicLeverageByIDRes',
          { ctidTraderAccountId: accountId, leverage },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOASymbolByIdReq': {
        const ids = (body.symbolId as number[] | undefined) ?? [];
        const found = ids.flatMap((id) => this.symbols.get(id) ?? []);
        if (found.length !== ids.length) {
          this.error(session, message, 'SYMBOL_NOT_FOUND', 'Symbol not found', accountId);
          return;
        }
        this.write(
          session,
          'ProtoOASymbolByIdRes',
          {
            ctidTraderAccountId: accountId,
            symbol: found.map(({ spec, hours }) => ({
              symbolId: spec.symbolId,
              digits: spec.digits,
              pipPosition: spec.pipPosition,
              lotSize: spec.lotSize,
              minVolume: spec.minVolume,
              stepVolume: spec.stepVolume,
              maxVolume: spec.maxVolume,
              enableShortSelling: true,
              ...(spec.leverageId === undefined ? {} : { leverageId: spec.leverageId }),
              ...protoHours(hours),
              ...spec.commission,
            })),
          },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOASubscribeSpotsReq': {
        const ids = (body.symbolId as number[] | undefined) ?? [];
        const set = session.spots.get(accountId) ?? new Set<number>();
        if (ids.some((id) => set.has(id))) {
          this.error(session, message, 'ALREADY_SUBSCRIBED', 'Already subscribed', accountId);
          return;
        }
        if (ids.some((id) => !this.symbols.has(id))) {
          this.error(session, message, 'SYMBOL_NOT_FOUND', 'Symbol not found', accountId);
          return;
        }
        for (const id of ids) set.add(id);
        session.spots.set(accountId, set);
        this.write(
          session,
          'ProtoOASubscribeSpotsRes',
          { ctidTraderAccountId: accountId },
          message.clientMsgId,
        );
        // The first spot event of a subscription carries the current price.
        for (const id of ids) {
          const symbol = this.symbolOf(id);
          this.write(session, 'ProtoOASpotEvent', {
            ctidTraderAccountId: accountId,
            symbolId: id,
            bid: Math.round(symbol.bid * PRICE_SCALE),
            ask: Math.round(symbol.ask * PRICE_SCALE),
            timestamp: Date.now(),
          });
        }
        return;
      }
      case 'ProtoOAUnsubscribeSpotsReq': {
        const set = session.spots.get(accountId);
        for (const id of (body.symbolId as number[] | undefined) ?? []) set?.delete(id);
        this.write(
          session,
          'ProtoOAUnsubscribeSpotsRes',
          { ctidTraderAccountId: accountId },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOAAssetListReq': {
        this.write(
          session,
          'ProtoOAAssetListRes',
          {
            ctidTraderAccountId: accountId,
            asset: this.assets.map((asset) => ({ ...asset, displayName: asset.name })),
          },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOASymbolsForConversionReq': {
        const chain = this.conversionChain(body.firstAssetId as number, body.lastAssetId as number);
        this.write(
          session,
          'ProtoOASymbolsForConversionRes',
          { ctidTraderAccountId: accountId, symbol: chain.map((id) => this.lightSymbol(id)) },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOATraderReq': {
        const state = this.accountState(accountId);
        this.write(
          session,
          'ProtoOATraderRes',
          {
            ctidTraderAccountId: accountId,
            trader: {
              ctidTraderAccountId: accountId,
              balance: state.balance,
              depositAssetId: state.account.depositAssetId,
              leverageInCents: state.account.leverageInCents,
              moneyDigits: state.account.moneyDigits,
              traderLogin: state.account.traderLogin,
              brokerName: state.account.brokerName,
              accountType: 'HEDGED',
            },
          },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOAGetPositionUnrealizedPnLReq': {
        // At the price it would close at now; the fake charges no swap or commission.
        this.write(
          session,
          'ProtoOAGetPositionUnrealizedPnLRes',
          {
            ctidTraderAccountId: accountId,
            positionUnrealizedPnL: this.openPositions(accountId).map((p) => {
              const symbol = this.symbolOf(p.symbolId);
              const profit = this.profitAt(p, p.side === 'BUY' ? symbol.bid : symbol.ask, p.volume);
              return {
                positionId: p.positionId,
                grossUnrealizedPnL: profit,
                // Net of the opening side's commission, not of the closing one (as documented).
                netUnrealizedPnL: profit - this.commissionPerSide(p, p.volume),
              };
            }),
            moneyDigits: this.accountState(accountId).account.moneyDigits,
          },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOAReconcileReq': {
        this.write(
          session,
          'ProtoOAReconcileRes',
          {
            ctidTraderAccountId: accountId,
            position: this.openPositions(accountId).map((p) =>
              this.positionBody(p, 'POSITION_STATUS_OPEN'),
            ),
            order: [],
          },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOAOrderListReq': {
        const from = (body.fromTimestamp as number | undefined) ?? 0;
        const to = (body.toTimestamp as number | undefined) ?? Number.MAX_SAFE_INTEGER;
        this.write(
          session,
          'ProtoOAOrderListRes',
          {
            ctidTraderAccountId: accountId,
            order: this.history
              .filter((o) => o.accountId === accountId && o.timestamp >= from && o.timestamp <= to)
              .map((o) => o.body),
            hasMore: false,
          },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOADealListReq': {
        const from = (body.fromTimestamp as number | undefined) ?? 0;
        const to = (body.toTimestamp as number | undefined) ?? Number.MAX_SAFE_INTEGER;
        const max = (body.maxRows as number | undefined) ?? 1000;
        const matching = this.deals.filter(
          (deal) =>
            deal.accountId === accountId &&
            deal.executionTimestamp >= from &&
            deal.executionTimestamp <= to,
        );
        this.write(
          session,
          'ProtoOADealListRes',
          {
            ctidTraderAccountId: accountId,
            deal: matching.slice(0, max).map((deal) => deal.body),
            hasMore: matching.length > max,
          },
          message.clientMsgId,
        );
        return;
      }
      case 'ProtoOANewOrderReq': {
        this.newOrder(session, message, accountId);
        return;
      }
      case 'ProtoOAGetTickDataReq': {
        const held = this.tickDataHeld;
        if (held) {
          void held.then(() => {
            this.tickData(session, message, accountId);
          });
        } else {
          this.tickData(session, message, accountId);
        }
        return;
      }
      case 'ProtoOAClosePositionReq': {
        const position = this.positions.get(body.positionId as number);
        if (position?.accountId !== accountId) {
          this.write(
            session,
            'ProtoOAOrderErrorEvent',
            {
              ctidTraderAccountId: accountId,
              errorCode: 'POSITION_NOT_FOUND',
              description: 'Position not found',
            },
            message.clientMsgId,
          );
          return;
        }
        const symbol = this.symbolOf(position.symbolId);
        this.closePosition(
          position,
          position.side === 'BUY' ? symbol.bid : symbol.ask,
          message.clientMsgId,
          false,
          Math.min(position.volume, (body.volume as number | undefined) ?? position.volume),
        );
        return;
      }
      default: {
        this.error(
          session,
          message,
          'UNSUPPORTED_MESSAGE',
          `${message.name} is not supported by the fake`,
        );
        return;
      }
    }
  }

  /**
   * One side's quotes in [fromTimestamp, toTimestamp], newest first, at most a chunk, as the
   * definitions say: the first entry's time and price absolute, each later one the difference from
   * the entry before it. A side's quote is listed when that side moved.
   */
  private tickData(session: Session, message: DecodedMessage, accountId: number): void {
    const body = message.body;
    const symbol = this.symbols.get(body.symbolId as number);
    if (symbol === undefined) {
      this.error(session, message, 'SYMBOL_NOT_FOUND', 'Symbol is not found', accountId);
      return;
    }
    const from = (body.fromTimestamp as number | undefined) ?? 0;
    const to = (body.toTimestamp as number | undefined) ?? Number.MAX_SAFE_INTEGER;
    const side = body.type === 'ASK' ? 'ask' : 'bid';
    symbol.moves ??= {};
    let moves = symbol.moves[side];
    if (moves === undefined) {
      moves = [];
      let previous: number | undefined;
      for (const quote of symbol.quoted) {
        const price = Math.round(quote[side] * PRICE_SCALE);
        if (price !== previous) moves.push({ time: quote.time, price });
        previous = price;
      }
      symbol.moves[side] = moves;
    }
    // The moves in [from, to], newest first: found by bisection, as a server's index would.
    const first = firstAtOrAfter(moves, from);
    const end = firstAtOrAfter(moves, to + 1);
    const size = this.options.tickDataChunkSize ?? 5000;
    const chunk = moves.slice(Math.max(first, end - size), end).reverse();
    this.write(
      session,
      'ProtoOAGetTickDataRes',
      {
        ctidTraderAccountId: accountId,
        tickData: chunk.map((move, index) => {
          const before = chunk[index - 1];
          return before === undefined
            ? { timestamp: move.time, tick: move.price }
            : { timestamp: move.time - before.time, tick: move.price - before.price };
        }),
        hasMore: end - first > chunk.length,
      },
      message.clientMsgId,
    );
  }

  private orderError(
    session: Session,
    message: DecodedMessage,
    accountId: number,
    code: string,
    description: string,
  ): void {
    this.write(
      session,
      'ProtoOAOrderErrorEvent',
      { ctidTraderAccountId: accountId, errorCode: code, description },
      message.clientMsgId,
    );
  }

  private newOrder(session: Session, message: DecodedMessage, accountId: number): void {
    const body = message.body;
    const fault = this.orderFault;
    this.orderFault = undefined;
    if (fault === 'drop-before-execution') {
      session.socket.destroy();
      return;
    }
    const symbol = this.symbols.get(body.symbolId as number);
    if (symbol === undefined) {
      this.orderError(session, message, accountId, 'SYMBOL_NOT_FOUND', 'Symbol not found');
      return;
    }
    if (body.orderType !== 'MARKET') {
      this.orderError(
        session,
        message,
        accountId,
        'INVALID_REQUEST',
        'The fake executes market orders only',
      );
      return;
    }
    const volume = body.volume as number;
    const { minVolume, maxVolume, stepVolume } = symbol.spec;
    if (volume < minVolume || volume > maxVolume || volume % stepVolume !== 0) {
      this.orderError(
        session,
        message,
        accountId,
        'TRADING_BAD_VOLUME',
        `Volume ${volume} is not allowed`,
      );
      return;
    }
    if (!this.marketOpen) {
      this.orderError(session, message, accountId, 'MARKET_CLOSED', 'Market is closed');
      return;
    }
    const hours = brokerSession(symbol.hours, Date.now());
    if (hours === 'holiday') {
      this.orderError(
        session,
        message,
        accountId,
        'SYMBOL_HAS_HOLIDAY',
        'Trading disabled because symbol has holiday',
      );
      return;
    }
    if (hours === 'closed') {
      this.orderError(session, message, accountId, 'MARKET_CLOSED', 'Market is closed');
      return;
    }
    const side = body.tradeSide as 'BUY' | 'SELL';
    const half = Math.max(stepVolume, Math.floor(volume / 2 / stepVolume) * stepVolume);
    const opened = this.open(
      accountId,
      symbol,
      side,
      fault === 'part-then-cancel' ? half : volume,
      body,
    );
    if (opened === undefined) {
      this.orderError(session, message, accountId, 'NOT_ENOUGH_MONEY', 'Not enough funds');
      return;
    }
    const { position, order, deal } = opened;
    this.write(
      session,
      'ProtoOAExecutionEvent',
      {
        ctidTraderAccountId: accountId,
        executionType: 'ORDER_ACCEPTED',
        position: this.positionBody(position, 'POSITION_STATUS_CREATED'),
        order: order('ORDER_STATUS_ACCEPTED', false),
      },
      message.clientMsgId,
    );
    this.record(
      position,
      order,
      deal,
      fault === 'part-then-cancel' ? 'ORDER_STATUS_CANCELLED' : 'ORDER_STATUS_FILLED',
    );
    if (fault === 'drop-after-execution') {
      session.socket.destroy();
      return;
    }
    if (fault === 'fill-in-parts' || fault === 'part-then-cancel') {
      const part: FakePosition =
        fault === 'part-then-cancel'
          ? position
          : {
              ...position,
              volume: half,
              usedMargin: Math.round((position.usedMargin * half) / volume),
            };
      this.broadcast(
        accountId,
        'ProtoOAExecutionEvent',
        {
          ctidTraderAccountId: accountId,
          executionType: 'ORDER_PARTIAL_FILL',
          position: this.positionBody(part, 'POSITION_STATUS_OPEN'),
          order: {
            ...order('ORDER_STATUS_ACCEPTED', true),
            tradeData: this.tradeData(part),
            executedVolume: half,
          },
          deal: this.dealBody(part, position.orderId, half, position.price, side, undefined),
        },
        session,
        message.clientMsgId,
      );
      if (fault === 'part-then-cancel') {
        this.broadcast(
          accountId,
          'ProtoOAExecutionEvent',
          {
            ctidTraderAccountId: accountId,
            executionType: 'ORDER_CANCELLED',
            position: this.positionBody(position, 'POSITION_STATUS_OPEN'),
            order: order('ORDER_STATUS_CANCELLED', true),
          },
          session,
          message.clientMsgId,
        );
        return;
      }
    }
    this.broadcastFill(opened, session, message.clientMsgId);
  }

  /** Tells every session holding the account that the position opened (ORDER_FILLED). */
  private broadcastFill(
    { position, order, deal }: NonNullable<ReturnType<FakeCTraderServer['open']>>,
    origin: Session | undefined,
    clientMsgId: string | undefined,
  ): void {
    this.broadcast(
      position.accountId,
      'ProtoOAExecutionEvent',
      {
        ctidTraderAccountId: position.accountId,
        executionType: 'ORDER_FILLED',
        position: this.positionBody(position, 'POSITION_STATUS_OPEN'),
        order: order('ORDER_STATUS_FILLED', true),
        deal,
      },
      origin,
      clientMsgId,
    );
  }

  /**
   * The user (or another app of theirs) opens a market position on the account outside this
   * product, with no protection and `label` if given: sessions holding the account are told, as
   * the real server tells every application. Returns its position id.
   */
  openElsewhere(
    accountId: number,
    symbolId: number,
    side: 'BUY' | 'SELL',
    volume: number,
    label?: string,
  ): number {
    const symbol = this.symbolOf(symbolId);
    const opened = this.open(accountId, symbol, side, volume, {
      tradeSide: side,
      volume,
      ...(label === undefined ? {} : { label }),
    });
    if (opened === undefined) throw new Error('fake cTrader: not enough funds');
    const { position, order, deal } = opened;
    this.record(position, order, deal);
    this.broadcastFill(opened, undefined, undefined);
    return position.positionId;
  }

  /** A market position at the current price, or undefined if its margin does not fit. */
  private open(
    accountId: number,
    symbol: SymbolState,
    side: 'BUY' | 'SELL',
    volume: number,
    body: MessageBody,
  ):
    | {
        position: FakePosition;
        order: (status: string, executed: boolean) => MessageBody;
        deal: MessageBody;
      }
    | undefined {
    const state = this.accountState(accountId);
    const price = side === 'BUY' ? symbol.ask : symbol.bid;
    const units = volume / 100;
    const scale = 10 ** state.account.moneyDigits;
    const notional = units * price * this.depositPerQuote(state.account, symbol.spec.symbolId);
    const usedMargin = Math.round(
      (notional / this.leverageFor(state.account, symbol.spec, notional)) * scale,
    );
    const marginInUse = this.openPositions(accountId).reduce((sum, p) => sum + p.usedMargin, 0);
    if (marginInUse + usedMargin > state.balance) return undefined;
    const relativeSl = body.relativeStopLoss as number | undefined;
    const relativeTp = body.relativeTakeProfit as number | undefined;
    const direction = side === 'BUY' ? 1 : -1;
    const round = (value: number): number => Number(value.toFixed(symbol.spec.digits));
    const orderId = ++this.nextId;
    const positionId = ++this.nextId;
    const position: FakePosition = {
      positionId,
      accountId,
      symbolId: symbol.spec.symbolId,
      side,
      volume,
      price,
      stopLoss:
        relativeSl === undefined
          ? Number.NaN
          : round(price - (direction * relativeSl) / PRICE_SCALE),
      takeProfit:
        relativeTp === undefined
          ? Number.NaN
          : round(price + (direction * relativeTp) / PRICE_SCALE),
      usedMargin,
      label: body.label as string | undefined,
      clientOrderId: body.clientOrderId as string | undefined,
      orderId,
      openTimestamp: Date.now(),
    };
    this.orders.push({ orderId, accountId, clientOrderId: position.clientOrderId, body });
    const order = (status: string, executed: boolean): MessageBody => ({
      orderId,
      tradeData: this.tradeData(position),
      orderType: 'MARKET',
      orderStatus: status,
      ...(position.clientOrderId === undefined ? {} : { clientOrderId: position.clientOrderId }),
      positionId,
      ...(relativeSl === undefined ? {} : { relativeStopLoss: relativeSl }),
      ...(relativeTp === undefined ? {} : { relativeTakeProfit: relativeTp }),
      ...(executed ? { executionPrice: price, executedVolume: volume } : {}),
    });
    const deal = this.dealBody(position, orderId, volume, price, side, undefined);
    return { position, order, deal };
  }

  /** The position is open at the broker: in its positions, its order history and its deals. */
  private record(
    position: FakePosition,
    order: (status: string, executed: boolean) => MessageBody,
    deal: MessageBody,
    status = 'ORDER_STATUS_FILLED',
  ): void {
    this.positions.set(position.positionId, position);
    this.history.push({
      accountId: position.accountId,
      timestamp: position.openTimestamp,
      body: order(status, true),
    });
    this.deals.push({
      body: deal,
      accountId: position.accountId,
      executionTimestamp: deal.executionTimestamp as number,
    });
  }

  /** The profit of `volume` of the position at `price`, in the account's money units. */
  private profitAt(position: FakePosition, price: number, volume: number): number {
    const state = this.accountState(position.accountId);
    const symbol = this.symbolOf(position.symbolId);
    const direction = position.side === 'BUY' ? 1 : -1;
    return Math.round(
      direction *
        (price - position.price) *
        (volume / 100) *
        this.depositPerQuote(state.account, symbol.spec.symbolId) *
        10 ** state.account.moneyDigits,
    );
  }

  /**
   * One side's commission on `volume` of the position, in the account's money units: USD per
   * million of the value in dollars, on a dollar account; 0 in every other case.
   */
  private commissionPerSide(position: FakePosition, volume: number): number {
    const state = this.accountState(position.accountId);
    const commission = this.symbolOf(position.symbolId).spec.commission;
    if (
      commission?.commissionType !== 'USD_PER_MILLION_USD' ||
      state.account.depositAssetId !== 15
    ) {
      return 0;
    }
    const rate = Number(commission.preciseTradingCommissionRate ?? 0) / 1e8;
    const dollars =
      (volume / 100) * position.price * this.depositPerQuote(state.account, position.symbolId);
    return Math.round((rate * dollars * 10 ** state.account.moneyDigits) / 1_000_000);
  }

  /** `volume` below the position's closes that part; the rest stays open. */
  private closePosition(
    position: FakePosition,
    closePrice: number,
    clientMsgId: string | undefined,
    byServer: boolean,
    volume: number = position.volume,
  ): void {
    const state = this.accountState(position.accountId);
    const grossProfit = this.profitAt(position, closePrice, volume);
    // Both sides of the closed volume are realised with the closing deal.
    const commission = -2 * this.commissionPerSide(position, volume);
    state.balance = Math.max(0, state.balance + grossProfit + commission);
    const rest: FakePosition | undefined =
      volume < position.volume
        ? {
            ...position,
            volume: position.volume - volume,
            usedMargin: Math.round(
              (position.usedMargin * (position.volume - volume)) / position.volume,
            ),
          }
        : undefined;
    if (rest === undefined) this.positions.delete(position.positionId);
    else this.positions.set(position.positionId, rest);
    const closingSide = position.side === 'BUY' ? 'SELL' : 'BUY';
    const orderId = ++this.nextId;
    const deal = this.dealBody(position, orderId, volume, closePrice, closingSide, {
      entryPrice: position.price,
      grossProfit,
      swap: 0,
      commission,
      balance: state.balance,
      closedVolume: volume,
      moneyDigits: state.account.moneyDigits,
    });
    this.deals.push({
      body: deal,
      accountId: position.accountId,
      executionTimestamp: deal.executionTimestamp as number,
    });
    const closingOrder: MessageBody = {
      orderId,
      tradeData: { ...this.tradeData(position), tradeSide: closingSide, volume },
      orderType: byServer ? 'STOP_LOSS_TAKE_PROFIT' : 'MARKET',
      orderStatus: 'ORDER_STATUS_FILLED',
      closingOrder: true,
      positionId: position.positionId,
      executionPrice: closePrice,
      executedVolume: volume,
      ...(byServer
        ? closePrice === position.takeProfit
          ? { takeProfit: position.takeProfit }
          : { stopLoss: position.stopLoss }
        : {}),
    };
    this.history.push({ accountId: position.accountId, timestamp: Date.now(), body: closingOrder });
    this.broadcast(
      position.accountId,
      'ProtoOAExecutionEvent',
      {
        ctidTraderAccountId: position.accountId,
        executionType: 'ORDER_FILLED',
        position:
          rest === undefined
            ? {
                ...this.positionBody(position, 'POSITION_STATUS_CLOSED'),
                tradeData: { ...this.tradeData(position), closeTimestamp: Date.now() },
              }
            : this.positionBody(rest, 'POSITION_STATUS_OPEN'),
        order: closingOrder,
        deal,
        isServerEvent: byServer,
      },
      undefined,
      clientMsgId,
    );
  }

  /** Execution events go to every session that holds the account (as on the real server). */
  private broadcast(
    accountId: number,
    name: string,
    body: MessageBody,
    origin: Session | undefined,
    clientMsgId: string | undefined,
  ): void {
    for (const session of this.sessions) {
      if (!session.accounts.has(accountId)) continue;
      this.write(
        session,
        name,
        body,
        session === origin || origin === undefined ? clientMsgId : undefined,
      );
    }
  }

  private lightSymbol(symbolId: number): MessageBody {
    const symbol = this.symbolOf(symbolId);
    return {
      symbolId,
      symbolName: symbol.spec.symbolName,
      enabled: true,
      baseAssetId: symbol.baseAssetId,
      quoteAssetId: symbol.quoteAssetId,
    };
  }

  private tradeData(position: FakePosition): MessageBody {
    return {
      symbolId: position.symbolId,
      volume: position.volume,
      tradeSide: position.side,
      openTimestamp: position.openTimestamp,
      ...(position.label === undefined ? {} : { label: position.label }),
    };
  }

  private positionBody(position: FakePosition, status: string): MessageBody {
    const state = this.accountState(position.accountId);
    return {
      positionId: position.positionId,
      tradeData: this.tradeData(position),
      positionStatus: status,
      swap: 0,
      // The opening side, unrealised until the position closes.
      commission: -this.commissionPerSide(position, position.volume),
      price: position.price,
      ...(Number.isNaN(position.stopLoss) ? {} : { stopLoss: position.stopLoss }),
      ...(Number.isNaN(position.takeProfit) ? {} : { takeProfit: position.takeProfit }),
      usedMargin: position.usedMargin,
      moneyDigits: state.account.moneyDigits,
      utcLastUpdateTimestamp: Date.now(),
    };
  }

  private dealBody(
    position: FakePosition,
    orderId: number,
    volume: number,
    price: number,
    side: string,
    closePositionDetail: MessageBody | undefined,
  ): MessageBody {
    const now = Date.now();
    return {
      dealId: ++this.nextId,
      orderId,
      positionId: position.positionId,
      volume,
      filledVolume: volume,
      symbolId: position.symbolId,
      createTimestamp: now,
      executionTimestamp: now,
      executionPrice: price,
      tradeSide: side,
      dealStatus: 'FILLED',
      moneyDigits: this.accountState(position.accountId).account.moneyDigits,
      ...(closePositionDetail === undefined ? {} : { closePositionDetail }),
    };
  }
}

/** A symbol's hours as ProtoOASymbol carries them (schedule, scheduleTimeZone, holiday). */
function protoHours(hours: BrokerHours): MessageBody {
  return {
    schedule: hours.intervals.map(({ startSecond, endSecond }) => ({ startSecond, endSecond })),
    scheduleTimeZone: hours.timeZone,
    holiday: hours.holidays.map((holiday, index) => ({
      holidayId: index + 1,
      name: holiday.name,
      scheduleTimeZone: holiday.timeZone,
      holidayDate: holiday.holidayDate,
      isRecurring: holiday.isRecurring,
      startSecond: holiday.startSecond,
      endSecond: holiday.endSecond,
    })),
  };
}

/** The index of the first move at or after `time` in moves sorted by time. */
function firstAtOrAfter(moves: readonly { time: number }[], time: number): number {
  let low = 0;
  let high = moves.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((moves[middle]?.time ?? Infinity) < time) low = middle + 1;
    else high = middle;
  }
  return low;
}
