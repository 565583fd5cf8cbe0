import type { InstrumentCatalogue } from '../../instruments/catalogue';
import type { Instrument } from '../../instruments/instrument';
import { TickDispatcher, type MarketDataFeed } from '../../market-data/market-data-feed';
import type { Tick, Unsubscribe } from '../../market-data/tick';
import type { Cents } from '../../money/minor-units';
import { riskLevels, riskProfile } from '../../risk/risk-profile';
import type {
  AccountFigures,
  AccountState,
  BrokerAdapter,
  BrokerRejectReason,
  CloseReason,
  ExecutionReport,
  OpenPositionView,
  OrderFilledReport,
  OrderQueryResult,
  OrderRejectedReport,
  OrderRequest,
  PositionClosedReport,
} from '../broker-adapter';
import type { CTraderClient, StateChange } from './client';
import {
  CTraderConnectionError,
  CTraderError,
  CTraderRateLimitError,
  CTraderTokenError,
} from './errors';
import type { DecodedMessage, MessageBody } from './protocol';
import { CTraderTickHistory } from './tick-history';
import { brokerHours, brokerSession, type BrokerHours, type BrokerSession } from './schedule';

/**
 * The robot's broker port on a cTrader account (decision 077). Prices come from the account's
 * spot subscription; orders are market orders with relative stop-loss and take-profit in the
 * broker's units, a client order id (also the position's label) on every one, and the broker's
 * own margin figures for the 50% cap. After a reconnection or a restart, orders whose outcome is
 * unknown are reconciled by client order id before anything is sent again.
 *
 * Money (decision 097): the account's amounts are in its deposit currency (the asset named by
 * `depositAssetId`), scaled by the `moneyDigits` each message carries, and kept in hundredths of
 * that currency. A symbol's quote currency is converted to the deposit currency along the chain of
 * the broker's own symbols that `ProtoOASymbolsForConversionReq` names, at their live prices; a
 * symbol with no such chain is listed and never traded.
 */

/** cTrader prices and relative distances are integers in 1/100000 of a price unit. */
const PRICE_SCALE = 100_000;
/** The smallest share of the equity in margin an operation takes, over every risk level. */
const smallestShare = Math.min(
  ...riskLevels.map((level) => riskProfile(level).marginFractionPerOperation),
);
/** Volumes are in cents of a unit. */
const VOLUME_PER_UNIT = 100;
/** The share of equity all open operations' margin may use (spec §1, §9). */
export const openMarginCap = 0.5;
/** How far back the history is read at start when the caller knows nothing older of ours. */
const ORDER_SEARCH_MS = 24 * 60 * 60 * 1000;
/** Slack on each side of a history window, for the broker's clock against ours. */
const HISTORY_SLACK_MS = 60_000;
/** The longest range one order or deal list request covers, in case the server limits it. */
const HISTORY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** Pages of tick data read per symbol and side at most: a bound on a warm-up's requests. */
const TICK_PAGES_PER_SIDE = 20;
/**
 * A symbol the broker refused as closed when its hours said open (an unannounced break): held
 * closed this long, or until the broker says the symbol changed, so no order is sent in a loop.
 */
const REFUSED_CLOSED_MS = 5 * 60 * 1000;

export interface CTraderAccountLink {
  /** Our account id (the engine's). */
  readonly accountId: string;
  readonly ctidTraderAccountId: number;
  readonly accessToken: string;
  /**
   * Since when the broker's history must be read at start: the oldest order of ours still
   * pending or operation still open in our records (an order may have filled, and its position
   * closed, while no process listened). Default: the last 24 hours.
   */
  readonly historyFrom?: number;
}

export interface CTraderBrokerOptions {
  readonly client: CTraderClient;
  readonly catalogue: InstrumentCatalogue;
  readonly accounts: readonly CTraderAccountLink[];
  readonly now?: () => number;
  /**
   * How often the profit of the account's other positions (not the robot's) is asked of the
   * broker while there are any; the broker's documentation suggests every 2 to 3 seconds.
   */
  readonly othersProfitMs?: number;
  /** Where a symbol whose leverage could not be read is told, once per account run. */
  readonly warn?: (message: string) => void;
}

/** One leg of a conversion chain: multiply by the symbol's mid, or divide by it. */
interface ConversionLeg {
  readonly symbolId: number;
  readonly multiply: boolean;
}

interface BrokerSymbol {
  readonly symbolId: number;
  readonly instrument: Instrument;
  /** From the quote currency to the deposit currency; empty when they are the same. */
  readonly toDeposit: readonly ConversionLeg[];
  readonly digits: number;
  readonly pipPosition: number;
  readonly minVolume: number;
  readonly stepVolume: number;
  readonly maxVolume: number;
  /** The broker's commission on the symbol (ProtoOASymbol), per side of a trade. */
  readonly commission: SymbolCommission;
  /** Units in one lot (ProtoOASymbol.lotSize is in cents of a unit). */
  readonly lotUnits: number;
  /** The broker's own trading hours and holidays for the symbol (not our catalogue's). */
  hours: BrokerHours;
  /** Until when the symbol is held closed after the broker refused an order as closed. */
  refusedUntil: number;
  /**
   * The symbol's dynamic leverage tiers (ProtoOADynamicLeverage), sorted by volume; undefined
   * when the broker names none or refused to read them (decision 102).
   */
  readonly tiers: readonly LeverageTier[] | undefined;
}

/** One tier: up to `volumeUsdCents` of open position notional per side, `leverage`. */
interface LeverageTier {
  readonly volumeUsdCents: number;
  readonly leverage: number;
}

/**
 * A symbol's trading commission as ProtoOASymbol gives it, charged on each side of a trade:
 * `type` is ProtoOACommissionType, `rate` its amount (USD per million USD, USD per lot, a fraction
 * of the value, or quote currency per lot), `minimum` the least per trade, in `minimumIn`.
 * `unknown` when the symbol names a commission in a form we cannot read (the deprecated field
 * alone): the robot does not trade on a guessed cost.
 */
interface SymbolCommission {
  readonly type: string;
  readonly rate: number;
  readonly minimum: number;
  readonly minimumIn: 'USD' | 'QUOTE';
  readonly unknown: boolean;
}

/** An open position of the account that is not the robot's: counted, never touched. */
interface OtherPosition {
  marginCents: Cents;
  /** Its net unrealised profit as the broker last said it (0 until it has). */
  profitCents: Cents;
}

interface Position {
  readonly positionId: string;
  readonly clientOrderId: string;
  readonly symbol: BrokerSymbol;
  readonly side: 'buy' | 'sale';
  /** What is still open: less than the fill once part of it was closed at the broker. */
  units: number;
  readonly price: number;
  readonly takeProfit: number;
  readonly stopLoss: number;
  marginCents: Cents;
  /**
   * Its swap and unrealised commission as the broker last described the position (negative
   * when charged): realised with the closing deal, part of its profit until then.
   */
  chargesCents: Cents;
  /** The closing deals of the parts closed so far: booked with the last one. */
  readonly partCloses: MessageBody[];
}

type OrderState =
  | { readonly kind: 'sending'; readonly sentAt: number; readonly request: OrderRequest }
  | { readonly kind: 'uncertain'; readonly sentAt: number; readonly request: OrderRequest }
  | { readonly kind: 'waiting'; readonly request: OrderRequest }
  | { readonly kind: 'filled'; readonly fill: OrderFilledReport; closed?: PositionClosedReport }
  | { readonly kind: 'rejected'; readonly rejection: OrderRejectedReport };

interface Account {
  readonly link: CTraderAccountLink;
  balanceCents: Cents;
  moneyDigits: number;
  leverage: number;
  depositAssetId: number;
  /** The deposit currency's ISO 4217 code, as the broker's asset list names it. */
  currency: string;
  /** The last bid and ask of each subscribed symbol, conversion symbols included. */
  readonly quotes: Map<number, { readonly bid: number; readonly ask: number }>;
  /** Symbols to subscribe only for their prices (conversion chains). */
  readonly conversionSymbolIds: Set<number>;
  /** Mapped symbols whose quote currency has no conversion to the deposit currency. */
  readonly unconvertible: string[];
  tokenValid: boolean;
  readonly symbolsById: Map<number, BrokerSymbol>;
  readonly symbolsByName: Map<string, BrokerSymbol>;
  readonly unmapped: string[];
  /** The robot's own open positions (labelled with one of its client order ids for the account). */
  readonly positions: Map<string, Position>;
  /**
   * The margin of every other open position on the account (the user's own trades, another
   * app's), by position id: never reported, closed or shown as the robot's, but counted in the
   * used margin so the 50% cap and the free margin see the whole account.
   */
  readonly others: Map<string, OtherPosition>;
  /**
   * The robot's orders filled in part so far, by client order id: the position as the broker
   * last described it (its margin is counted in `others` until the fill is reported).
   */
  readonly partFills: Map<string, MessageBody>;
  /** Closes we asked for, with the reason to report. */
  readonly closing: Map<string, CloseReason>;
  /** Every event of the account up to this time has reached us: the next history read's start. */
  syncedAt: number;
  /** Reconciled on the current connection, so each message received moves `syncedAt`. */
  inSync: boolean;
  /** Closes heard while a reconciliation reads the history: booked after it, with its deals. */
  deferredCloses: MessageBody[] | undefined;
  /** Symbols whose unread leverage was already told this run. */
  readonly leverageWarned: Set<string>;
}

export class CTraderBroker implements BrokerAdapter, MarketDataFeed {
  private readonly client: CTraderClient;
  /** The broker's recorded quotes (ProtoOAGetTickDataReq), read apart from trading. */
  private readonly tickHistory: CTraderTickHistory;
  private readonly catalogue: InstrumentCatalogue;
  private readonly ticks = new TickDispatcher();
  private readonly now: () => number;
  private readonly accounts = new Map<string, Account>();
  private readonly byCtid = new Map<number, Account>();
  private readonly orders = new Map<string, OrderState>();
  private readonly listeners = new Set<(report: ExecutionReport) => void>();
  private readonly stops: (() => void)[] = [];
  private reconciling: Promise<void> = Promise.resolve();

  constructor(private readonly options: CTraderBrokerOptions) {
    this.client = options.client;
    this.tickHistory = new CTraderTickHistory(options.client);
    this.catalogue = options.catalogue;
    this.now = options.now ?? Date.now;
  }

  /**
   * Authorises each account, reads its trader figures and symbols, subscribes to the spots of
   * the symbols our catalogue knows, and reconciles open positions and unknown orders.
   */
  async start(): Promise<void> {
    this.stops.push(
      this.client.onEvent((message) => {
        this.onMessage(message);
      }),
      this.client.onState((change) => {
        this.onState(change);
      }),
    );
    for (const link of this.options.accounts) {
      await this.client.authorizeAccount(link.ctidTraderAccountId, link.accessToken);
      const account: Account = {
        link,
        balanceCents: 0,
        moneyDigits: 2,
        leverage: 1,
        leverageWarned: new Set(),
        depositAssetId: 0,
        currency: '',
        quotes: new Map(),
        conversionSymbolIds: new Set(),
        unconvertible: [],
        tokenValid: true,
        symbolsById: new Map(),
        symbolsByName: new Map(),
        unmapped: [],
        positions: new Map(),
        others: new Map(),
        partFills: new Map(),
        closing: new Map(),
        syncedAt: link.historyFrom ?? this.now() - ORDER_SEARCH_MS,
        inSync: false,
        deferredCloses: undefined,
      };
      this.accounts.set(link.accountId, account);
      this.byCtid.set(link.ctidTraderAccountId, account);
      await this.readTrader(account);
      await this.readCurrency(account);
      await this.readSymbols(account);
      await this.reconcile(account);
      await this.client.subscribeSpots(link.ctidTraderAccountId, [
        ...new Set([...account.symbolsById.keys(), ...account.conversionSymbolIds]),
      ]);
    }
    const timer = setInterval(() => {
      void this.readOthersProfit();
    }, this.options.othersProfitMs ?? 3_000);
    timer.unref();
    this.stops.push(() => {
      clearInterval(timer);
    });
  }

  /**
   * The net unrealised profit of every open position that is not the robot's, from the broker
   * (ProtoOAGetPositionUnrealizedPnLReq): we do not value the user's own trades ourselves, and
   * their symbols may be ones we do not subscribe to. Asked only for accounts that have some.
   */
  private async readOthersProfit(): Promise<void> {
    if (this.client.state !== 'ready') return;
    for (const account of this.accounts.values()) {
      if (account.others.size === 0 || !account.tokenValid) continue;
      try {
        const answer = await this.client.request('ProtoOAGetPositionUnrealizedPnLReq', {
          ctidTraderAccountId: account.link.ctidTraderAccountId,
        });
        const digits = num(answer.body.moneyDigits ?? account.moneyDigits);
        for (const row of (answer.body.positionUnrealizedPnL as MessageBody[] | undefined) ?? []) {
          const other = account.others.get(String(num(row.positionId)));
          if (other !== undefined) other.profitCents = toCents(num(row.netUnrealizedPnL), digits);
        }
      } catch {
        // Dropped or refused: the last figures stay until the next round.
      }
    }
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  /** The broker's symbols that match no instrument of ours: listed, never guessed. */
  unmappedSymbols(accountId: string): readonly string[] {
    return this.accounts.get(accountId)?.unmapped ?? [];
  }

  /**
   * The broker's symbols we map but cannot value in the account's currency (no conversion chain
   * at the broker): listed, never traded, never given a guessed rate.
   */
  unconvertibleSymbols(accountId: string): readonly string[] {
    return this.accounts.get(accountId)?.unconvertible ?? [];
  }

  /** The account's deposit currency (ISO 4217), once started. */
  accountCurrency(accountId: string): string | undefined {
    return this.accounts.get(accountId)?.currency;
  }

  /**
   * The value in the account's currency of one unit of the symbol's quote currency, along the
   * broker's conversion chain at its live mids; undefined for a symbol not traded here or before
   * the chain's prices arrive.
   */
  quoteToAccount(accountId: string, symbol: string): number | undefined {
    const account = this.accounts.get(accountId);
    const brokerSymbol = account?.symbolsByName.get(symbol);
    if (account === undefined || brokerSymbol === undefined) return undefined;
    return this.depositPerQuote(account, brokerSymbol);
  }

  /**
   * What opening and closing one unit of the symbol costs at the broker besides the spread (its
   * commission, both sides), in the symbol's price units at `price`, for an order of about the
   * size the robot sends (10% of the equity in margin, the smallest share of any risk level, so a
   * minimum commission weighs its most); undefined when it cannot be worked out (a commission in
   * a form we cannot read, or in dollars with no dollar rate for the symbol's quote currency): the
   * robot does not trade there (decision 096 addendum, "commissions").
   */
  roundTurnCost(accountId: string, symbol: string, price: number): number | undefined {
    const account = this.accounts.get(accountId);
    const brokerSymbol = account?.symbolsByName.get(symbol);
    if (account === undefined || brokerSymbol === undefined) return undefined;
    const { commission, lotUnits, instrument } = brokerSymbol;
    if (commission.unknown) return undefined;
    if (commission.rate === 0 && commission.minimum === 0) return 0;
    // Dollars in the quote currency: 1 when it is the dollar, the deposit rate on a dollar account.
    const quotePerUsd =
      instrument.quoteCurrency === 'USD'
        ? 1
        : account.currency === 'USD'
          ? inverse(this.depositPerQuote(account, brokerSymbol))
          : undefined;
    let perUnit: number | undefined;
    switch (commission.type) {
      case 'USD_PER_MILLION_USD':
        // The volume in dollars is the value in the quote currency at the dollar rate, and the
        // commission goes back to the quote currency at the same rate: the rate cancels.
        perUnit = (commission.rate / 1_000_000) * price;
        break;
      case 'USD_PER_LOT':
        perUnit =
          quotePerUsd === undefined ? undefined : (commission.rate * quotePerUsd) / lotUnits;
        break;
      case 'PERCENTAGE_OF_VALUE':
        perUnit = commission.rate * price;
        break;
      case 'QUOTE_CCY_PER_LOT':
        perUnit = commission.rate / lotUnits;
        break;
    }
    if (perUnit === undefined) return undefined;
    if (commission.minimum > 0) {
      const minimum =
        commission.minimumIn === 'QUOTE'
          ? commission.minimum
          : quotePerUsd === undefined
            ? undefined
            : commission.minimum * quotePerUsd;
      const units = this.typicalUnits(account, brokerSymbol, price);
      if (minimum === undefined || units === undefined) return undefined;
      perUnit = Math.max(perUnit, minimum / units);
    }
    return 2 * perUnit;
  }

  /**
   * The units of the smallest order the robot sends: the smallest share of the equity in margin
   * of any risk level (10%), at the leverage the risk gate sizes at.
   */
  private typicalUnits(account: Account, symbol: BrokerSymbol, price: number): number | undefined {
    const depositPerQuote = this.depositPerQuote(account, symbol);
    if (depositPerQuote === undefined || !(price > 0)) return undefined;
    // The leverage the risk gate sizes at: the catalogue's, or the symbol's at the broker if lower.
    const atBroker =
      symbol.tiers === undefined ? account.leverage : effectiveLeverage(account, symbol, undefined);
    const leverage = Math.min(atBroker, symbol.instrument.leverage);
    const marginPerUnit = (price * depositPerQuote) / leverage;
    const units = (smallestShare * this.figures(account).equityCents) / 100 / marginPerUnit;
    return units > 0 ? Math.max(units, symbol.minVolume / VOLUME_PER_UNIT) : undefined;
  }

  /** The account's leverage as the broker said it (ProtoOATrader.leverageInCents / 100). */
  accountLeverage(accountId: string): number | undefined {
    return this.accounts.get(accountId)?.leverage;
  }

  /**
   * The leverage the broker applies to the symbol (decision 102): the lower of the account's and
   * the symbol's tier. With a notional in the account's currency, the tier it falls in when the
   * account is in USD (tiers are in USD); the lowest tier otherwise. Undefined for a symbol with
   * no tiers read: the engine then sizes at the lower of the account's and the catalogue's.
   */
  symbolLeverage(accountId: string, symbol: string, notionalCents?: number): number | undefined {
    const account = this.accounts.get(accountId);
    const entry = account?.symbolsByName.get(symbol);
    if (account === undefined || entry?.tiers === undefined) return undefined;
    return effectiveLeverage(account, entry, notionalCents);
  }

  /**
   * Whether the symbol trades at the account's broker at `time`, by the broker's own schedule and
   * holidays (ProtoOASymbol), or is held closed after the broker refused an order as closed;
   * undefined for a symbol not traded here.
   */
  session(accountId: string, symbol: string, time: number): BrokerSession | undefined {
    const brokerSymbol = this.accounts.get(accountId)?.symbolsByName.get(symbol);
    if (brokerSymbol === undefined) return undefined;
    if (time < brokerSymbol.refusedUntil) return 'closed';
    return brokerSession(brokerSymbol.hours, time);
  }

  /** Whether the robot may open an operation on the symbol at `time` (see `session`). */
  marketOpen(accountId: string, symbol: string, time: number): boolean {
    return this.session(accountId, symbol, time) === 'open';
  }

  /** False once the broker says the account's token expired or was revoked. */
  authorised(accountId: string): boolean {
    return this.accounts.get(accountId)?.tokenValid ?? false;
  }

  // MarketDataFeed ----------------------------------------------------------------------------

  subscribe(listener: (tick: Tick) => void): Unsubscribe {
    return this.ticks.subscribe(listener);
  }

  lastTick(symbol: string): Tick | undefined {
    return this.ticks.lastTick(symbol);
  }

  // BrokerAdapter -----------------------------------------------------------------------------

  onReport(listener: (report: ExecutionReport) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  submitOrder(order: OrderRequest): void {
    // One client order id, one order at the broker: a repeat is answered from what we know.
    const known = this.orders.get(order.clientOrderId);
    if (known !== undefined) {
      if (known.kind === 'filled') this.emit(known.fill);
      if (known.kind === 'rejected') this.emit(known.rejection);
      return;
    }
    const account = this.accounts.get(order.accountId);
    if (account === undefined) {
      this.reject(order, 'UNKNOWN_ACCOUNT');
      return;
    }
    if (!account.tokenValid) {
      this.reject(order, 'NOT_AUTHORISED');
      return;
    }
    if (this.client.state !== 'ready') {
      // Not sent: it goes out once the connection is back and reconciled.
      this.orders.set(order.clientOrderId, { kind: 'waiting', request: order });
      return;
    }
    this.send(account, order);
  }

  closePosition(accountId: string, positionId: string, reason: CloseReason): void {
    const account = this.accounts.get(accountId);
    const position = account?.positions.get(positionId);
    if (account === undefined || position === undefined) return;
    account.closing.set(positionId, reason);
    this.client
      .request('ProtoOAClosePositionReq', {
        ctidTraderAccountId: account.link.ctidTraderAccountId,
        positionId: Number(positionId),
        volume: Math.round(position.units * VOLUME_PER_UNIT), // 0.07 BTC: 7, not 7.000000000000001
      })
      .catch(() => {
        // The position stays open (or its close arrives as an execution event): the engine may
        // ask again; reconciliation shows the truth after a reconnection.
      });
  }

  account(accountId: string): AccountState | undefined {
    const account = this.accounts.get(accountId);
    if (account === undefined) return undefined;
    const figures = this.figures(account);
    return {
      accountId,
      currency: account.currency,
      depositsCents: account.balanceCents,
      realisedProfitCents: 0,
      balanceCents: account.balanceCents,
      ...figures,
      openPositions: account.positions.size,
    };
  }

  /** Summed from the open positions at the latest spots: a new object per call (decision 099). */
  accountFigures(accountId: string): AccountFigures | undefined {
    const account = this.accounts.get(accountId);
    return account === undefined ? undefined : this.figures(account);
  }

  openPositions(accountId: string): readonly OpenPositionView[] {
    const account = this.accounts.get(accountId);
    if (account === undefined) return [];
    return [...account.positions.values()].map((position) => ({
      positionId: position.positionId,
      clientOrderId: position.clientOrderId,
      symbol: position.symbol.instrument.symbol,
      side: position.side,
      units: position.units,
      marginCents: position.marginCents,
      unrealisedProfitCents: this.unrealisedCents(account, position),
    }));
  }

  async queryOrder(clientOrderId: string): Promise<OrderQueryResult> {
    await this.reconciling;
    const known = this.orders.get(clientOrderId);
    if (known?.kind === 'filled')
      return { status: 'filled', fill: known.fill, closed: known.closed };
    if (known?.kind === 'rejected') return { status: 'rejected', rejection: known.rejection };
    return { status: 'unknown' };
  }

  // Orders ------------------------------------------------------------------------------------

  private send(account: Account, order: OrderRequest): void {
    const symbol = account.symbolsByName.get(order.symbol);
    if (symbol === undefined) {
      this.reject(order, 'UNKNOWN_INSTRUMENT');
      return;
    }
    const tick = this.ticks.lastTick(order.symbol);
    if (tick === undefined) {
      this.reject(order, 'NO_PRICE');
      return;
    }
    const volume = this.volumeFor(account, symbol, order, tick);
    if (typeof volume === 'string') {
      this.reject(order, volume);
      return;
    }
    // Outside the broker's session nothing is sent: it would only be refused.
    if (!this.marketOpen(account.link.accountId, order.symbol, this.now())) {
      this.reject(order, 'MARKET_CLOSED');
      return;
    }
    const sentAt = this.now();
    this.orders.set(order.clientOrderId, { kind: 'sending', sentAt, request: order });
    this.client
      .request('ProtoOANewOrderReq', {
        ctidTraderAccountId: account.link.ctidTraderAccountId,
        symbolId: symbol.symbolId,
        orderType: 'MARKET',
        tradeSide: order.side === 'buy' ? 'BUY' : 'SELL',
        volume,
        ...relativeProtection(symbol, tick),
        clientOrderId: order.clientOrderId,
        label: order.clientOrderId,
      })
      .catch((error: unknown) => {
        const state = this.orders.get(order.clientOrderId);
        if (state?.kind !== 'sending') return;
        if (error instanceof CTraderConnectionError) {
          this.orders.set(
            order.clientOrderId,
            error.maybeDelivered
              ? { kind: 'uncertain', sentAt, request: order }
              : { kind: 'waiting', request: order },
          );
          return;
        }
        this.reject(
          order,
          rejectReason(error),
          error instanceof CTraderError ? error.code : undefined,
        );
      });
  }

  /**
   * The order's volume in the broker's units: the engine's units floored to the symbol's step,
   * within its minimum and maximum, and trimmed so the margin of all open operations stays under
   * half the equity, by the broker's own figures and the account's leverage.
   */
  private volumeFor(
    account: Account,
    symbol: BrokerSymbol,
    order: OrderRequest,
    tick: Tick,
  ): number | BrokerRejectReason {
    const step = symbol.stepVolume;
    let volume = Math.min(
      Math.floor((order.units * VOLUME_PER_UNIT) / step) * step,
      Math.floor(symbol.maxVolume / step) * step,
    );
    if (volume < symbol.minVolume) return 'INVALID_SIZE';
    const figures = this.figures(account);
    const entry = order.side === 'buy' ? tick.ask : tick.bid;
    const depositPerQuote = this.depositPerQuote(account, symbol);
    if (depositPerQuote === undefined) return 'NO_PRICE';
    const sameSide = [...account.positions.values()]
      .filter((p) => p.symbol === symbol && p.side === order.side)
      .reduce((total, p) => total + p.units, 0);
    const notionalCents = Math.round(
      (sameSide + volume / VOLUME_PER_UNIT) * entry * depositPerQuote * 100,
    );
    const leverage = effectiveLeverage(account, symbol, notionalCents);
    const marginPerVolumeCents = (entry * depositPerQuote * 100) / VOLUME_PER_UNIT / leverage;
    const room = openMarginCap * figures.equityCents - figures.usedMarginCents;
    if (volume * marginPerVolumeCents > room) {
      volume = Math.floor(room / marginPerVolumeCents / step) * step;
      if (volume < symbol.minVolume) return 'INSUFFICIENT_MARGIN';
    }
    return volume;
  }

  private reject(order: OrderRequest, reason: BrokerRejectReason, brokerCode?: string): void {
    if (reason === 'MARKET_CLOSED' && brokerCode !== undefined) {
      // The broker itself said closed: so it is, for a while, whatever its hours said.
      const symbol = this.accounts.get(order.accountId)?.symbolsByName.get(order.symbol);
      if (symbol !== undefined) symbol.refusedUntil = this.now() + REFUSED_CLOSED_MS;
    }
    const rejection: OrderRejectedReport = {
      kind: 'rejected',
      clientOrderId: order.clientOrderId,
      accountId: order.accountId,
      reason,
      ...(brokerCode === undefined ? {} : { brokerCode }),
      time: this.now(),
    };
    this.orders.set(order.clientOrderId, { kind: 'rejected', rejection });
    this.emit(rejection);
  }

  private emit(report: ExecutionReport): void {
    for (const listener of this.listeners) listener(report);
  }

  // Broker messages ---------------------------------------------------------------------------

  private onMessage(message: DecodedMessage): void {
    const body = message.body;
    const heard = this.byCtid.get(num(body.ctidTraderAccountId));
    if (heard?.inSync === true) heard.syncedAt = this.now();
    if (message.name === 'ProtoOASpotEvent') {
      this.onSpot(body);
    } else if (message.name === 'ProtoOAExecutionEvent') {
      const account = this.byCtid.get(num(body.ctidTraderAccountId));
      if (account !== undefined) this.onExecution(account, body);
    } else if (message.name === 'ProtoOATraderUpdatedEvent') {
      const account = this.byCtid.get(num(body.ctidTraderAccountId));
      if (account !== undefined) this.applyTrader(account, body.trader as MessageBody);
    } else if (message.name === 'ProtoOASymbolChangedEvent') {
      const account = this.byCtid.get(num(body.ctidTraderAccountId));
      if (account !== undefined) {
        this.rereadHours(account, ((body.symbolId as unknown[] | undefined) ?? []).map(num)).catch(
          () => {
            // The old hours stand; the broker's own refusal still holds a closed symbol.
          },
        );
      }
    } else if (message.name === 'ProtoOAAccountsTokenInvalidatedEvent') {
      for (const id of (body.ctidTraderAccountIds as number[] | undefined) ?? []) {
        const account = this.byCtid.get(id);
        if (account !== undefined) account.tokenValid = false;
      }
    }
  }

  private onSpot(body: MessageBody): void {
    const account = this.byCtid.get(num(body.ctidTraderAccountId));
    if (account === undefined) return;
    const symbolId = num(body.symbolId);
    const symbol = account.symbolsById.get(symbolId);
    if (symbol === undefined && !account.conversionSymbolIds.has(symbolId)) return;
    const previous = account.quotes.get(symbolId);
    // A spot event may carry only the side that moved.
    const bid = body.bid === undefined ? previous?.bid : num(body.bid) / PRICE_SCALE;
    const ask = body.ask === undefined ? previous?.ask : num(body.ask) / PRICE_SCALE;
    if (bid === undefined || ask === undefined) return;
    account.quotes.set(symbolId, { bid, ask });
    // A conversion chain's symbol only values amounts in the deposit currency.
    if (symbol === undefined) return;
    this.ticks.publish({
      symbol: symbol.instrument.symbol,
      time: body.timestamp === undefined ? this.now() : num(body.timestamp),
      bid,
      ask,
    });
  }

  private onExecution(account: Account, body: MessageBody): void {
    const type = body.executionType;
    const order = (body.order ?? {}) as MessageBody;
    const position = (body.position ?? {}) as MessageBody;
    const clientOrderId = clientOrderIdOf(order, position);
    if (type === 'ORDER_REJECTED' && clientOrderId !== undefined) {
      const state = this.orders.get(clientOrderId);
      if (state !== undefined && 'request' in state) {
        const code = typeof body.errorCode === 'string' ? body.errorCode : 'ORDER_REJECTED';
        this.reject(state.request, rejectReason(code), code);
      }
      return;
    }
    if (type === 'DEPOSIT_WITHDRAW') {
      // A deposit or withdrawal the user made at the broker: the balance it left is the truth.
      const change = (body.depositWithdraw ?? {}) as MessageBody;
      if (change.balance !== undefined) {
        account.balanceCents = toCents(
          num(change.balance),
          num(change.moneyDigits ?? account.moneyDigits),
        );
      }
      return;
    }
    if ((type === 'ORDER_CANCELLED' || type === 'ORDER_EXPIRED') && clientOrderId !== undefined) {
      // The rest of an order filled in part will not fill: the part is the operation.
      const part = account.partFills.get(clientOrderId);
      if (part !== undefined) this.onFilled(account, clientOrderId, part, order);
      return;
    }
    if (type !== 'ORDER_FILLED' && type !== 'ORDER_PARTIAL_FILL') return;
    if (position.positionStatus === 'POSITION_STATUS_CLOSED' || order.closingOrder === true) {
      if (account.deferredCloses === undefined) this.onClosed(account, body);
      else account.deferredCloses.push(body);
      return;
    }
    if (clientOrderId === undefined || !this.isOwnOrder(account, clientOrderId)) {
      this.otherPosition(account, position);
      return;
    }
    if (type === 'ORDER_PARTIAL_FILL' && this.orders.get(clientOrderId)?.kind !== 'filled') {
      // Reported once, whole: when the rest fills, or when the rest is cancelled. Meanwhile the
      // part's margin counts.
      account.partFills.set(clientOrderId, position);
      this.otherPosition(account, position);
      return;
    }
    this.onFilled(account, clientOrderId, position, order);
  }

  /**
   * Whether a client order id (or a position's label) is the robot's for this account: an order
   * this adapter sent, or one with the ids the robot gives the account's orders,
   * `<account id>/<symbol>/<decision time>` (signal-router), sent by an earlier process. The
   * account id is the user's own UUID, so another app's label on the same broker account never
   * matches.
   */
  private isOwnOrder(account: Account, clientOrderId: string): boolean {
    return this.orders.has(clientOrderId) || clientOrderId.startsWith(`${account.link.accountId}/`);
  }

  /** Keeps the margin of an open position that is not the robot's (its profit comes apart). */
  private otherPosition(account: Account, position: MessageBody): void {
    if (position.positionId === undefined) return;
    const positionId = String(num(position.positionId));
    const marginCents = toCents(
      num(position.usedMargin ?? 0),
      num(position.moneyDigits ?? account.moneyDigits),
    );
    const known = account.others.get(positionId);
    if (known === undefined) account.others.set(positionId, { marginCents, profitCents: 0 });
    else known.marginCents = marginCents;
  }

  private onFilled(
    account: Account,
    clientOrderId: string,
    position: MessageBody,
    order: MessageBody,
  ): OrderFilledReport | undefined {
    const known = this.orders.get(clientOrderId);
    account.partFills.delete(clientOrderId);
    account.others.delete(String(num(position.positionId)));
    if (known?.kind === 'filled') {
      // More of it filled after it was reported (a reconnection in between): the volume grows.
      const held = account.positions.get(known.fill.positionId);
      if (held !== undefined && position.tradeData !== undefined)
        this.resize(account, held, position);
      return known.fill;
    }
    const tradeData = (position.tradeData ?? {}) as MessageBody;
    const symbol = account.symbolsById.get(num(tradeData.symbolId));
    if (symbol === undefined) return undefined;
    const tick = this.ticks.lastTick(symbol.instrument.symbol);
    const held: Position = {
      positionId: String(num(position.positionId)),
      clientOrderId,
      symbol,
      side: tradeData.tradeSide === 'BUY' ? 'buy' : 'sale',
      units: num(tradeData.volume) / VOLUME_PER_UNIT,
      price: num(position.price ?? order.executionPrice),
      takeProfit: num(position.takeProfit),
      stopLoss: num(position.stopLoss),
      marginCents: toCents(
        num(position.usedMargin ?? 0),
        num(position.moneyDigits ?? account.moneyDigits),
      ),
      chargesCents: chargesOf(account, position),
      partCloses: [],
    };
    account.positions.set(held.positionId, held);
    const fill: OrderFilledReport = {
      kind: 'filled',
      clientOrderId,
      accountId: account.link.accountId,
      positionId: held.positionId,
      symbol: symbol.instrument.symbol,
      side: held.side,
      units: held.units,
      price: held.price,
      bid: tick?.bid ?? held.price,
      ask: tick?.ask ?? held.price,
      takeProfit: held.takeProfit,
      stopLoss: held.stopLoss,
      marginCents: held.marginCents,
      time: num(tradeData.openTimestamp ?? this.now()),
    };
    this.orders.set(clientOrderId, { kind: 'filled', fill });
    this.emit(fill);
    return fill;
  }

  private onClosed(account: Account, body: MessageBody): void {
    const position = (body.position ?? {}) as MessageBody;
    const order = (body.order ?? {}) as MessageBody;
    const deal = (body.deal ?? {}) as MessageBody;
    const positionId = String(num(position.positionId ?? deal.positionId));
    const held = account.positions.get(positionId);
    if (held === undefined) {
      // Another position of the account: its margin goes, or what is left of it stays.
      if (position.positionStatus === 'POSITION_STATUS_OPEN') this.otherPosition(account, position);
      else account.others.delete(positionId);
      return;
    }
    const detail = (deal.closePositionDetail ?? {}) as MessageBody;
    if (detail.balance !== undefined)
      account.balanceCents = toCents(
        num(detail.balance),
        num(detail.moneyDigits ?? account.moneyDigits),
      );
    if (position.positionStatus === 'POSITION_STATUS_OPEN') {
      // Part of it was closed (by the user, at the broker): the rest stays open.
      this.resize(account, held, position);
      this.closedPart(held, deal);
      return;
    }
    this.closed(
      account,
      held,
      [deal],
      order.orderType === 'STOP_LOSS_TAKE_PROFIT',
      body.isServerEvent === true,
    );
  }

  /**
   * Reports a position closed by its closing deals: the one of a live event, or those the history
   * holds (several when it was closed in parts). The profit is theirs summed (gross profit, swap
   * and commission, as the broker booked them to the balance), the close price the mean of their
   * prices weighted by the volume each closed.
   */
  private closed(
    account: Account,
    held: Position,
    closing: readonly MessageBody[],
    byProtection: boolean,
    byServer: boolean,
  ): void {
    for (const deal of closing) this.closedPart(held, deal);
    const deals = held.partCloses;
    let profitCents = 0;
    let closedVolume = 0;
    let priceByVolume = 0;
    for (const deal of deals) {
      const detail = (deal.closePositionDetail ?? {}) as MessageBody;
      const profit =
        num(detail.grossProfit ?? 0) + num(detail.swap ?? 0) + num(detail.commission ?? 0);
      profitCents += toCents(profit, num(detail.moneyDigits ?? account.moneyDigits));
      const volume = num(detail.closedVolume ?? deal.filledVolume ?? 0);
      closedVolume += volume;
      priceByVolume += volume * num(deal.executionPrice);
    }
    const last = deals.at(-1) ?? {};
    const closePrice =
      deals.length === 1 || closedVolume <= 0
        ? num(last.executionPrice)
        : Number((priceByVolume / closedVolume).toFixed(held.symbol.digits));
    account.positions.delete(held.positionId);
    const requested = account.closing.get(held.positionId);
    account.closing.delete(held.positionId);
    // The last part's price says which protection closed it (an earlier part may have closed at
    // the market).
    const lastPrice = num(last.executionPrice);
    const reason: CloseReason = byProtection
      ? Math.abs(lastPrice - held.takeProfit) <= Math.abs(lastPrice - held.stopLoss)
        ? 'tp'
        : 'sl'
      : (requested ?? (byServer ? 'closeout' : 'kill'));
    const report: PositionClosedReport = {
      kind: 'position-closed',
      clientOrderId: held.clientOrderId,
      accountId: account.link.accountId,
      positionId: held.positionId,
      symbol: held.symbol.instrument.symbol,
      closePrice,
      reason,
      profitCents,
      time: num(last.executionTimestamp ?? this.now()),
    };
    const state = this.orders.get(held.clientOrderId);
    if (state?.kind === 'filled') state.closed = report;
    this.emit(report);
  }

  /** A closing deal of the position, kept once (by deal id) until its last part closes. */
  private closedPart(held: Position, deal: MessageBody): void {
    if (held.partCloses.some((kept) => num(kept.dealId) === num(deal.dealId))) return;
    held.partCloses.push(deal);
    held.partCloses.sort((a, b) => num(a.executionTimestamp) - num(b.executionTimestamp));
  }

  /** The position's open volume and margin as the broker reports them now. */
  private resize(account: Account, held: Position, position: MessageBody): void {
    const tradeData = (position.tradeData ?? {}) as MessageBody;
    if (tradeData.volume !== undefined) held.units = num(tradeData.volume) / VOLUME_PER_UNIT;
    if (position.usedMargin !== undefined)
      held.marginCents = toCents(
        num(position.usedMargin),
        num(position.moneyDigits ?? account.moneyDigits),
      );
    if (position.commission !== undefined || position.swap !== undefined) {
      held.chargesCents = chargesOf(account, position);
    }
  }

  private onState(change: StateChange): void {
    if (change.state !== 'ready') {
      // Events may now be missed: the next reconciliation reads the history from `syncedAt`.
      for (const account of this.accounts.values()) account.inSync = false;
      return;
    }
    if (!change.reconnected) return;
    this.reconciling = this.reconcileAll().catch(() => {
      // The connection dropped again: the next `ready` reconciles.
    });
  }

  // Reconciliation ----------------------------------------------------------------------------

  private async reconcileAll(): Promise<void> {
    for (const account of this.accounts.values()) {
      if (!account.tokenValid) continue;
      await this.readTrader(account);
      await this.reconcile(account);
    }
    // Orders that never left: send them now, once.
    for (const [clientOrderId, state] of [...this.orders]) {
      if (state.kind !== 'waiting') continue;
      this.orders.delete(clientOrderId);
      this.submitOrder(state.request);
    }
  }

  /**
   * Brings positions and orders in line with the broker: open positions by label (our client
   * order id); then the broker's orders and deals since the last moment the account's events were
   * known to reach us (`syncedAt`: the last message before a drop, or what our records say at a
   * start). An order whose outcome is unknown is looked up there: filled, rejected, or never
   * received, in which case it is sent again. An order of ours this process never heard of (sent
   * by an earlier one) that filled is reported, and every position that is gone from the broker
   * is reported closed with its closing deals' price and profit: exactly once, however many
   * times this runs. A close heard meanwhile waits for the history (which may hold earlier parts
   * of it), and is booked after it, or if it fails.
   */
  private async reconcile(account: Account): Promise<void> {
    account.deferredCloses = [];
    try {
      await this.reconcileWithHistory(account);
    } finally {
      const deferred = account.deferredCloses;
      account.deferredCloses = undefined;
      for (const body of deferred) this.onClosed(account, body);
    }
  }

  private async reconcileWithHistory(account: Account): Promise<void> {
    const ctid = account.link.ctidTraderAccountId;
    const startedAt = this.now();
    const open = await this.client.request('ProtoOAReconcileReq', { ctidTraderAccountId: ctid });
    const seen = new Set<string>();
    const othersGone = new Set(account.others.keys());
    for (const position of (open.body.position as MessageBody[] | undefined) ?? []) {
      const clientOrderId = clientOrderIdOf({}, position);
      if (clientOrderId === undefined || !this.isOwnOrder(account, clientOrderId)) {
        // Not the robot's: the user's own trades (or another app's, labelled or not) are left
        // alone, and only their margin and profit are counted.
        this.otherPosition(account, position);
        othersGone.delete(String(num(position.positionId)));
        continue;
      }
      const fill = this.onFilled(account, clientOrderId, position, {});
      if (fill === undefined) continue;
      seen.add(fill.positionId);
      const held = account.positions.get(fill.positionId);
      if (held !== undefined) this.resize(account, held, position);
    }
    for (const positionId of othersGone) account.others.delete(positionId);
    const uncertain = [...this.orders.values()].filter(
      (state): state is Extract<OrderState, { kind: 'uncertain' }> =>
        state.kind === 'uncertain' && state.request.accountId === account.link.accountId,
    );
    const from = Math.min(account.syncedAt, ...uncertain.map((u) => u.sentAt)) - HISTORY_SLACK_MS;
    const { orders: brokerOrders, deals: brokerDeals } = await this.history(
      ctid,
      from,
      this.now() + HISTORY_SLACK_MS,
    );
    for (const state of uncertain) {
      const id = state.request.clientOrderId;
      const found = brokerOrders.find((o) => o.clientOrderId === id && o.closingOrder !== true);
      if (found === undefined) {
        // The broker never received it: send it now, once.
        this.orders.delete(id);
        this.submitOrder(state.request);
        continue;
      }
      if (
        (found.orderStatus === 'ORDER_STATUS_REJECTED' ||
          found.orderStatus === 'ORDER_STATUS_CANCELLED' ||
          found.orderStatus === 'ORDER_STATUS_EXPIRED') &&
        num(found.executedVolume ?? 0) <= 0
      ) {
        this.reject(state.request, 'BROKER_REJECTED', found.orderStatus);
        continue;
      }
      // Filled, or filled in part before the rest was cancelled: the part is the operation.
      this.fillFromHistory(account, id, found, brokerDeals);
    }
    for (const found of brokerOrders) {
      const id = clientOrderIdOf(found, found);
      if (id === undefined || !this.isOwnOrder(account, id)) continue;
      if (found.closingOrder === true || this.orders.has(id)) continue;
      if (found.orderStatus !== 'ORDER_STATUS_FILLED' && num(found.executedVolume ?? 0) <= 0)
        continue;
      this.fillFromHistory(account, id, found, brokerDeals);
    }
    for (const held of [...account.positions.values()]) {
      const closing = brokerDeals
        .filter(
          (d) =>
            String(num(d.positionId)) === held.positionId && d.closePositionDetail !== undefined,
        )
        .sort((a, b) => num(a.executionTimestamp) - num(b.executionTimestamp));
      if (seen.has(held.positionId)) {
        // Still open: parts of it closed meanwhile are kept for its last close.
        for (const deal of closing) this.closedPart(held, deal);
        continue;
      }
      const last = closing.at(-1);
      if (last === undefined) continue;
      const closingOrder = brokerOrders.find((o) => num(o.orderId) === num(last.orderId));
      this.closed(
        account,
        held,
        closing,
        closingOrder?.orderType === 'STOP_LOSS_TAKE_PROFIT',
        closingOrder?.isStopOut === true,
      );
    }
    account.syncedAt = Math.max(account.syncedAt, startedAt);
    account.inSync = true;
  }

  /**
   * An order of ours the broker's history shows filled: reported as its fill, at the opening
   * deal's price, with its protection as the broker set it (absolute, or relative to that price).
   */
  private fillFromHistory(
    account: Account,
    clientOrderId: string,
    order: MessageBody,
    deals: readonly MessageBody[],
  ): void {
    const positionId = num(order.positionId);
    const opening = deals.find(
      (d) => num(d.positionId) === positionId && d.closePositionDetail === undefined,
    );
    const tradeData = (order.tradeData ?? {}) as MessageBody;
    const price = num(order.executionPrice ?? opening?.executionPrice);
    const symbol = account.symbolsById.get(num(tradeData.symbolId));
    const direction = tradeData.tradeSide === 'BUY' ? 1 : -1;
    const relative = (distance: unknown, sign: 1 | -1): number | undefined =>
      distance === undefined || symbol === undefined
        ? undefined
        : Number((price + (sign * direction * num(distance)) / PRICE_SCALE).toFixed(symbol.digits));
    this.onFilled(
      account,
      clientOrderId,
      {
        positionId,
        tradeData: {
          ...tradeData,
          volume: order.executedVolume ?? tradeData.volume,
          openTimestamp: tradeData.openTimestamp ?? opening?.executionTimestamp,
        },
        price,
        stopLoss: order.stopLoss ?? relative(order.relativeStopLoss, -1),
        takeProfit: order.takeProfit ?? relative(order.relativeTakeProfit, 1),
        usedMargin: 0,
      },
      order,
    );
  }

  /**
   * The account's orders and deals from `from` to `to`: one request per list and week (a server
   * may limit the range; we found no current figure documented), paged while it has more.
   */
  private async history(
    ctid: number,
    from: number,
    to: number,
  ): Promise<{ orders: MessageBody[]; deals: MessageBody[] }> {
    const orders = new Map<number, MessageBody>();
    const deals = new Map<number, MessageBody>();
    for (let start = from; start < to; start += HISTORY_WINDOW_MS) {
      const end = Math.min(to, start + HISTORY_WINDOW_MS);
      await this.pages('ProtoOAOrderListReq', 'order', ctid, start, end, orders);
      await this.pages('ProtoOADealListReq', 'deal', ctid, start, end, deals);
    }
    return { orders: [...orders.values()], deals: [...deals.values()] };
  }

  private async pages(
    name: 'ProtoOAOrderListReq' | 'ProtoOADealListReq',
    field: 'order' | 'deal',
    ctid: number,
    from: number,
    to: number,
    into: Map<number, MessageBody>,
  ): Promise<void> {
    let start = from;
    for (;;) {
      const answer = await this.client.request(name, {
        ctidTraderAccountId: ctid,
        fromTimestamp: start,
        toTimestamp: to,
      });
      const rows = (answer.body[field] as MessageBody[] | undefined) ?? [];
      for (const row of rows) into.set(num(field === 'deal' ? row.dealId : row.orderId), row);
      const latest = Math.max(start, ...rows.map(historyTime));
      // A full page: the next starts at its latest row (rows at that instant come again, once).
      if (answer.body.hasMore !== true || latest <= start) return;
      start = latest;
    }
  }

  // Price history -----------------------------------------------------------------------------

  /**
   * The broker's own quotes of the account's mapped symbols from `from` to `to`, oldest first,
   * bid and ask merged into ticks (read by CTraderTickHistory, at most `maxPages` pages a side).
   */
  async recentTicks(
    accountId: string,
    from: number,
    to: number,
    maxPages = TICK_PAGES_PER_SIDE,
  ): Promise<Tick[]> {
    const account = this.accounts.get(accountId);
    if (account === undefined) return [];
    const symbols = [...account.symbolsById.values()].map((symbol) => ({
      symbolId: symbol.symbolId,
      symbol: symbol.instrument.symbol,
    }));
    return this.tickHistory.ticks(account.link.ctidTraderAccountId, symbols, from, to, {
      maxPagesPerSide: maxPages,
    });
  }

  // Account data ------------------------------------------------------------------------------

  private async readTrader(account: Account): Promise<void> {
    const answer = await this.client.request('ProtoOATraderReq', {
      ctidTraderAccountId: account.link.ctidTraderAccountId,
    });
    this.applyTrader(account, answer.body.trader as MessageBody);
  }

  private applyTrader(account: Account, trader: MessageBody): void {
    account.moneyDigits = num(trader.moneyDigits ?? 2);
    if (trader.depositAssetId !== undefined) account.depositAssetId = num(trader.depositAssetId);
    account.balanceCents = toCents(num(trader.balance), account.moneyDigits);
    account.leverage = num(trader.leverageInCents ?? 100) / 100;
  }

  /** The deposit currency's code, from the broker's asset list: never assumed. */
  private async readCurrency(account: Account): Promise<void> {
    const list = await this.client.request('ProtoOAAssetListReq', {
      ctidTraderAccountId: account.link.ctidTraderAccountId,
    });
    const assets = (list.body.asset as MessageBody[] | undefined) ?? [];
    const deposit = assets.find((asset) => num(asset.assetId) === account.depositAssetId);
    if (typeof deposit?.name !== 'string') {
      throw new CTraderError({
        code: 'DEPOSIT_ASSET_NOT_FOUND',
        description: `no asset ${String(account.depositAssetId)} (the account's currency) listed`,
        accountId: account.link.ctidTraderAccountId,
      });
    }
    account.currency = deposit.name;
  }

  private async readSymbols(account: Account): Promise<void> {
    const ctid = account.link.ctidTraderAccountId;
    const list = await this.client.request('ProtoOASymbolsListReq', { ctidTraderAccountId: ctid });
    const byKey = new Map(this.catalogue.instruments.map((i) => [symbolKey(i.symbol), i]));
    const mapped = new Map<number, { instrument: Instrument; toDeposit: ConversionLeg[] }>();
    const chains = new Map<number, ConversionLeg[] | undefined>();
    for (const light of (list.body.symbol as MessageBody[] | undefined) ?? []) {
      const name = typeof light.symbolName === 'string' ? light.symbolName : '';
      const instrument = byKey.get(symbolKey(name));
      if (light.enabled === false) continue;
      if (instrument === undefined) {
        account.unmapped.push(name);
        continue;
      }
      const quoteAssetId = num(light.quoteAssetId);
      if (!chains.has(quoteAssetId))
        chains.set(quoteAssetId, await this.conversionChain(account, quoteAssetId));
      const toDeposit = chains.get(quoteAssetId);
      if (toDeposit === undefined) account.unconvertible.push(name);
      else mapped.set(num(light.symbolId), { instrument, toDeposit });
    }
    for (const chain of chains.values())
      for (const leg of chain ?? []) account.conversionSymbolIds.add(leg.symbolId);
    if (mapped.size === 0) return;
    const full = await this.client.request('ProtoOASymbolByIdReq', {
      ctidTraderAccountId: ctid,
      symbolId: [...mapped.keys()],
    });
    const tiersById = new Map<number, readonly LeverageTier[] | undefined>();
    for (const symbol of (full.body.symbol as MessageBody[] | undefined) ?? []) {
      const symbolId = num(symbol.symbolId);
      const found = mapped.get(symbolId);
      if (found === undefined) continue;
      const { instrument, toDeposit } = found;
      const entry: BrokerSymbol = {
        symbolId,
        instrument,
        toDeposit,
        digits: num(symbol.digits),
        pipPosition: num(symbol.pipPosition),
        minVolume: num(symbol.minVolume ?? 1),
        stepVolume: num(symbol.stepVolume ?? 1),
        maxVolume: num(symbol.maxVolume ?? Number.MAX_SAFE_INTEGER),
        commission: commissionOf(symbol, instrument.quoteCurrency),
        lotUnits: num(symbol.lotSize ?? VOLUME_PER_UNIT) / VOLUME_PER_UNIT,
        hours: brokerHours(symbol),
        refusedUntil: 0,
        tiers:
          symbol.leverageId === undefined
            ? undefined
            : await this.leverageTiers(account, num(symbol.leverageId), tiersById),
      };
      if (entry.tiers === undefined && !account.leverageWarned.has(instrument.symbol)) {
        account.leverageWarned.add(instrument.symbol);
        (this.options.warn ?? console.warn)(
          `ctrader: no dynamic leverage read for ${instrument.symbol} on account ${String(ctid)}; sized at the lower of the account's and the catalogue's`,
        );
      }
      account.symbolsById.set(symbolId, entry);
      account.symbolsByName.set(instrument.symbol, entry);
    }
  }

  /**
   * The tiers of one dynamic leverage (ProtoOAGetDynamicLeverageByIDReq), read once per
   * leverageId per account start; undefined when the broker refuses it. A refused token or a
   * rate limit is not an answer.
   */
  private async leverageTiers(
    account: Account,
    leverageId: number,
    cache: Map<number, readonly LeverageTier[] | undefined>,
  ): Promise<readonly LeverageTier[] | undefined> {
    if (cache.has(leverageId)) return cache.get(leverageId);
    let tiers: LeverageTier[] | undefined;
    try {
      const answer = await this.client.request('ProtoOAGetDynamicLeverageByIDReq', {
        ctidTraderAccountId: account.link.ctidTraderAccountId,
        leverageId,
      });
      const leverage = answer.body.leverage as MessageBody | undefined;
      tiers = ((leverage?.tiers as MessageBody[] | undefined) ?? [])
        .map((tier) => ({ volumeUsdCents: num(tier.volume), leverage: num(tier.leverage) }))
        .filter((tier) => tier.leverage > 0)
        .sort((a, b) => a.volumeUsdCents - b.volumeUsdCents);
      if (tiers.length === 0) tiers = undefined;
    } catch (error) {
      if (
        !(error instanceof CTraderError) ||
        error instanceof CTraderTokenError ||
        error instanceof CTraderRateLimitError
      )
        throw error;
    }
    cache.set(leverageId, tiers);
    return tiers;
  }

  /** A symbol changed at the broker (ProtoOASymbolChangedEvent): its hours are read again. */
  private async rereadHours(account: Account, symbolIds: readonly number[]): Promise<void> {
    const ids = symbolIds.filter((id) => account.symbolsById.has(id));
    if (ids.length === 0) return;
    const full = await this.client.request('ProtoOASymbolByIdReq', {
      ctidTraderAccountId: account.link.ctidTraderAccountId,
      symbolId: ids,
    });
    for (const symbol of (full.body.symbol as MessageBody[] | undefined) ?? []) {
      const entry = account.symbolsById.get(num(symbol.symbolId));
      if (entry === undefined) continue;
      entry.hours = brokerHours(symbol);
      entry.refusedUntil = 0;
    }
  }

  /**
   * The broker's chain of symbols from `quoteAssetId` to the deposit asset
   * (ProtoOASymbolsForConversionReq), as legs to multiply or divide by; undefined when the broker
   * knows none (an empty chain, an error, or one that does not end in the deposit asset).
   */
  private async conversionChain(
    account: Account,
    quoteAssetId: number,
  ): Promise<ConversionLeg[] | undefined> {
    if (quoteAssetId === account.depositAssetId) return [];
    if (!Number.isFinite(quoteAssetId)) return undefined;
    let answer: DecodedMessage;
    try {
      answer = await this.client.request('ProtoOASymbolsForConversionReq', {
        ctidTraderAccountId: account.link.ctidTraderAccountId,
        firstAssetId: quoteAssetId,
        lastAssetId: account.depositAssetId,
      });
    } catch (error) {
      // The broker refused the chain: no path. A refused token or a rate limit is not an answer.
      if (
        error instanceof CTraderError &&
        !(error instanceof CTraderTokenError) &&
        !(error instanceof CTraderRateLimitError)
      )
        return undefined;
      throw error;
    }
    const legs: ConversionLeg[] = [];
    let asset = quoteAssetId;
    for (const light of (answer.body.symbol as MessageBody[] | undefined) ?? []) {
      const base = num(light.baseAssetId);
      const quote = num(light.quoteAssetId);
      if (base === asset) {
        legs.push({ symbolId: num(light.symbolId), multiply: true });
        asset = quote;
      } else if (quote === asset) {
        legs.push({ symbolId: num(light.symbolId), multiply: false });
        asset = base;
      } else {
        return undefined;
      }
    }
    return legs.length > 0 && asset === account.depositAssetId ? legs : undefined;
  }

  /** One unit of the symbol's quote currency in the deposit currency, at the chain's mids. */
  private depositPerQuote(account: Account, symbol: BrokerSymbol): number | undefined {
    let value = 1;
    for (const leg of symbol.toDeposit) {
      const quote = account.quotes.get(leg.symbolId);
      if (quote === undefined) return undefined;
      const mid = (quote.bid + quote.ask) / 2;
      value = leg.multiply ? value * mid : value / mid;
    }
    return value;
  }

  private figures(account: Account): AccountFigures {
    let used = 0;
    let unrealised = 0;
    for (const position of account.positions.values()) {
      used += position.marginCents;
      unrealised += this.unrealisedCents(account, position);
    }
    for (const other of account.others.values()) {
      used += other.marginCents;
      unrealised += other.profitCents;
    }
    const equity = account.balanceCents + unrealised;
    return { equityCents: equity, usedMarginCents: used, freeMarginCents: equity - used };
  }

  private unrealisedCents(account: Account, position: Position): Cents {
    const tick = this.ticks.lastTick(position.symbol.instrument.symbol);
    const depositPerQuote = this.depositPerQuote(account, position.symbol);
    if (tick === undefined || depositPerQuote === undefined) return 0;
    const direction = position.side === 'buy' ? 1 : -1;
    const exit = position.side === 'buy' ? tick.bid : tick.ask;
    const inDeposit = direction * (exit - position.price) * position.units * depositPerQuote;
    return Math.round(inDeposit * 100) + position.chargesCents;
  }
}

/** A position's swap and unrealised commission, as its ProtoOAPosition gives them. */
function chargesOf(account: Account, position: MessageBody): Cents {
  return toCents(
    num(position.swap ?? 0) + num(position.commission ?? 0),
    num(position.moneyDigits ?? account.moneyDigits),
  );
}

/**
 * The published geometry in the broker's units, relative to the entry price: the take-profit one
 * pip beyond it (one pip above the spread from the closing price), the stop-loss the spread plus
 * five times (spread + 1 pip) on the other side (risk/trade-geometry.ts).
 */
export function relativeProtection(
  symbol: Pick<BrokerSymbol, 'pipPosition'>,
  tick: Pick<Tick, 'bid' | 'ask'>,
): { relativeTakeProfit: number; relativeStopLoss: number } {
  const pip = Math.round(PRICE_SCALE / 10 ** symbol.pipPosition);
  const spread = Math.round((tick.ask - tick.bid) * PRICE_SCALE);
  const distance = spread + pip;
  return { relativeTakeProfit: pip, relativeStopLoss: spread + 5 * distance };
}

/** A symbol name as compared with the catalogue: letters and digits, case-folded (decision 096). */
export function symbolKey(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** When a history row last changed: a deal's execution, an order's last update or opening. */
function historyTime(row: MessageBody): number {
  const tradeData = (row.tradeData ?? {}) as MessageBody;
  return num(
    row.executionTimestamp ??
      row.utcLastUpdateTimestamp ??
      tradeData.closeTimestamp ??
      tradeData.openTimestamp ??
      0,
  );
}

function inverse(value: number | undefined): number | undefined {
  return value === undefined || !(value > 0) ? undefined : 1 / value;
}

const commissionTypes: ReadonlySet<string> = new Set([
  'USD_PER_MILLION_USD',
  'USD_PER_LOT',
  'PERCENTAGE_OF_VALUE',
  'QUOTE_CCY_PER_LOT',
]);

/**
 * ProtoOASymbol's commission: `preciseTradingCommissionRate` is the amount times 10^8, or for a
 * percentage of the value the percentage times 10^5; `preciseMinCommission` the least per trade
 * times 10^8, in `minCommissionAsset` (USD) or the quote currency (`minCommissionType`).
 */
function commissionOf(symbol: MessageBody, quoteCurrency: string): SymbolCommission {
  const type =
    typeof symbol.commissionType === 'string' ? symbol.commissionType : 'USD_PER_MILLION_USD';
  const precise = symbol.preciseTradingCommissionRate;
  const minimum = num(symbol.preciseMinCommission ?? 0) / 1e8;
  const asset = typeof symbol.minCommissionAsset === 'string' ? symbol.minCommissionAsset : 'USD';
  const minimumIn =
    symbol.minCommissionType === 'QUOTE_CURRENCY' || asset === quoteCurrency ? 'QUOTE' : 'USD';
  const legacyOnly = precise === undefined && num(symbol.commission ?? 0) !== 0;
  // A minimum in a third currency: we would have to guess its rate.
  const foreignMinimum = minimum > 0 && minimumIn === 'USD' && asset !== 'USD';
  const rate =
    precise === undefined
      ? 0
      : type === 'PERCENTAGE_OF_VALUE'
        ? num(precise) / 1e5 / 100
        : num(precise) / 1e8;
  return {
    type,
    rate,
    minimum,
    minimumIn,
    unknown: legacyOnly || foreignMinimum || !commissionTypes.has(type),
  };
}

function clientOrderIdOf(order: MessageBody, position: MessageBody): string | undefined {
  if (typeof order.clientOrderId === 'string') return order.clientOrderId;
  const tradeData = (position.tradeData ?? {}) as MessageBody;
  return typeof tradeData.label === 'string' ? tradeData.label : undefined;
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

function toCents(amount: number, moneyDigits: number): Cents {
  return Math.round((amount * 100) / 10 ** moneyDigits);
}

function rejectReason(error: unknown): BrokerRejectReason {
  const code = error instanceof CTraderError ? error.code : typeof error === 'string' ? error : '';
  if (error instanceof CTraderTokenError) return 'NOT_AUTHORISED';
  switch (code) {
    case 'MARKET_CLOSED':
    case 'SYMBOL_HAS_HOLIDAY':
    case 'SERVER_IS_UNDER_MAINTENANCE':
    case 'TRADING_DISABLED':
      return 'MARKET_CLOSED';
    case 'TRADING_BAD_VOLUME':
    case 'TRADING_BAD_STAKE':
      return 'INVALID_SIZE';
    case 'TRADING_BAD_STOPS':
    case 'PROTECTION_IS_TOO_CLOSE_TO_MARKET':
      return 'INVALID_STOPS';
    case 'NOT_ENOUGH_MONEY':
    case 'MAX_EXPOSURE_REACHED':
    case 'TOO_MANY_POSITIONS':
      return 'INSUFFICIENT_MARGIN';
    case 'NO_QUOTES':
      return 'NO_PRICE';
    case 'SYMBOL_NOT_FOUND':
    case 'UNKNOWN_SYMBOL':
      return 'UNKNOWN_INSTRUMENT';
    default:
      return 'BROKER_REJECTED';
  }
}

/**
 * The leverage for a position of `notionalCents` (account currency) on the symbol: the lower of
 * the account's and the tier's (cTrader applies min(symbol, account), decision 102). Without a
 * notional, or when the account is not in USD, the lowest leverage of all tiers: conservative.
 * With no tiers, the account's: the broker's own figure, as before decision 102 (the engine has
 * already sized such a symbol at the lower of the account's and the catalogue's).
 */
function effectiveLeverage(
  account: Account,
  symbol: BrokerSymbol,
  notionalCents: number | undefined,
): number {
  const tiers = symbol.tiers;
  if (tiers === undefined) return account.leverage;
  let tierLeverage = Math.min(...tiers.map((tier) => tier.leverage));
  if (notionalCents !== undefined && account.currency === 'USD') {
    const tier = tiers.find((t) => notionalCents <= t.volumeUsdCents) ?? tiers[tiers.length - 1];
    if (tier !== undefined) tierLeverage = tier.leverage;
  }
  return Math.min(account.leverage, tierLeverage);
}
