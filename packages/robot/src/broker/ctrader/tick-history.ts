import type { Tick } from '../../market-data/tick';
import type { CTraderClient } from './client';
import { CTraderRateLimitError } from './errors';
import type { MessageBody } from './protocol';

/** Prices in the Open API are integers in 1/100000 of the quote currency. */
const PRICE_SCALE = 100_000;

/** One side's quote at a time, in price units. */
export interface SideQuote {
  readonly time: number;
  readonly price: number;
}

/** A symbol of the account whose history is read: the broker's id and our catalogue's name. */
export interface HistorySymbol {
  readonly symbolId: number;
  readonly symbol: string;
}

/** Where a read of history is: requests answered so far, and the symbol being read. */
export interface TickHistoryProgress {
  readonly requests: number;
  /** Symbols whose both sides are read, of how many. */
  readonly symbolsDone: number;
  readonly symbols: number;
  /** The side being read (bids first, then asks). */
  readonly side: 'BID' | 'ASK';
  /** The oldest time reached on the side being read (pages go back from `to`). */
  readonly reachedBack: number;
}

export interface TickHistoryOptions {
  /** Pages read per side and symbol at most (a bound on one read's requests). */
  readonly maxPagesPerSide?: number;
  /** After REQUEST_FREQUENCY_EXCEEDED: wait this long and ask again (default 1,000 ms). */
  readonly rateLimitWaitMs?: number;
  /** Refusals of one request for its frequency before the read gives up (default 5). */
  readonly rateLimitRetries?: number;
  /** Called after every page. */
  readonly onProgress?: (progress: TickHistoryProgress) => void;
  /** Checked before every request: a read that is no longer wanted stops there. */
  readonly signal?: AbortSignal;
}

const defaultPagesPerSide = 20;

/**
 * The broker's recorded quotes through the Open API (ProtoOAGetTickDataReq/Res), apart from the
 * trading adapter: one side (bid or ask) a request, paged back from `to` while the server says
 * `hasMore`, the two sides merged into ticks that carry both, as spot events do. The client paces
 * the requests at the API's historical limit (five a second per connection, HISTORICAL_REQUESTS);
 * a refusal for frequency anyway (another reader on the connection) waits and asks again.
 */
export class CTraderTickHistory {
  /** Pages answered since this reader was made. */
  private requests = 0;

  constructor(private readonly client: CTraderClient) {}

  /**
   * The quotes of `symbols` from `from` to `to` (Unix ms), oldest first, every symbol merged in
   * time order. Nothing is invented: a symbol's ticks start once both of its sides are known.
   */
  async ticks(
    ctidTraderAccountId: number,
    symbols: readonly HistorySymbol[],
    from: number,
    to: number,
    options: TickHistoryOptions = {},
  ): Promise<Tick[]> {
    const ticks: Tick[] = [];
    for (const [index, { symbolId, symbol }] of symbols.entries()) {
      const read = (type: 'BID' | 'ASK') =>
        this.side(ctidTraderAccountId, symbolId, type, from, to, options, (reachedBack) => {
          options.onProgress?.({
            requests: ++this.requests,
            symbolsDone: index,
            symbols: symbols.length,
            side: type,
            reachedBack,
          });
        });
      const bids = await read('BID');
      const asks = await read('ASK');
      // One at a time: a week of quotes is too many arguments for a spread.
      for (const tick of mergeSides(symbol, bids, asks)) ticks.push(tick);
    }
    return ticks.sort((a, b) => a.time - b.time);
  }

  /** One side's quotes, oldest first, paged backwards from `to` (the server answers newest first). */
  async side(
    ctidTraderAccountId: number,
    symbolId: number,
    type: 'BID' | 'ASK',
    from: number,
    to: number,
    options: TickHistoryOptions = {},
    onPage?: (reachedBack: number) => void,
  ): Promise<SideQuote[]> {
    const maxPages = options.maxPagesPerSide ?? defaultPagesPerSide;
    const pages: SideQuote[][] = [];
    let end = to;
    for (let page = 0; page < maxPages && end >= from; page++) {
      options.signal?.throwIfAborted();
      const answer = await this.page(
        { ctidTraderAccountId, symbolId, type, fromTimestamp: from, toTimestamp: end },
        options,
      );
      const quotes = decodeTickData((answer.tickData as MessageBody[] | undefined) ?? []);
      pages.push(quotes);
      const oldest = quotes.at(-1);
      onPage?.(oldest?.time ?? from);
      if (answer.hasMore !== true || oldest === undefined) break;
      // The next page ends just before this one's oldest tick: always further back.
      end = oldest.time - 1;
    }
    return pages.flat().reverse();
  }

  /** One request, asked again after a refusal for frequency (at most `rateLimitRetries` times). */
  private async page(request: MessageBody, options: TickHistoryOptions): Promise<MessageBody> {
    const retries = options.rateLimitRetries ?? 5;
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.client.request('ProtoOAGetTickDataReq', request)).body;
      } catch (error) {
        if (!(error instanceof CTraderRateLimitError) || attempt >= retries) throw error;
        await new Promise((resolve) => setTimeout(resolve, options.rateLimitWaitMs ?? 1000));
      }
    }
  }
}

/**
 * ProtoOAGetTickDataRes.tickData as quotes, newest first as sent: the first entry carries the
 * Unix time in milliseconds and the price (in 1/100000); every later one the difference from the
 * entry before it, in both fields (so, going back in time, negative time differences).
 */
export function decodeTickData(tickData: readonly MessageBody[]): SideQuote[] {
  const quotes: SideQuote[] = [];
  let time = 0;
  let price = 0;
  for (const [index, entry] of tickData.entries()) {
    time = index === 0 ? Number(entry.timestamp) : time + Number(entry.timestamp);
    price = index === 0 ? Number(entry.tick) : price + Number(entry.tick);
    quotes.push({ time, price: price / PRICE_SCALE });
  }
  return quotes;
}

/**
 * A symbol's bid and ask quotes (each oldest first) as ticks, oldest first: one at each time a
 * side moved, with the other side's latest quote, from the first time both are known.
 */
export function mergeSides(
  symbol: string,
  bids: readonly SideQuote[],
  asks: readonly SideQuote[],
): Tick[] {
  const ticks: Tick[] = [];
  let bid: number | undefined;
  let ask: number | undefined;
  let b = 0;
  let a = 0;
  while (b < bids.length || a < asks.length) {
    const nextBid = bids[b];
    const nextAsk = asks[a];
    const time = Math.min(nextBid?.time ?? Infinity, nextAsk?.time ?? Infinity);
    if (nextBid?.time === time) {
      bid = nextBid.price;
      b++;
    }
    if (nextAsk?.time === time) {
      ask = nextAsk.price;
      a++;
    }
    if (bid === undefined || ask === undefined) continue;
    const last = ticks.at(-1);
    // Several quotes in one millisecond: the last one stands.
    if (last?.time === time) ticks[ticks.length - 1] = { symbol, time, bid, ask };
    else ticks.push({ symbol, time, bid, ask });
  }
  return ticks;
}
