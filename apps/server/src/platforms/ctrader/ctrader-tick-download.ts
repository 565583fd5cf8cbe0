import { InstrumentCatalogue, ticksToSeries, type QuoteSeries } from '@tradebot/robot';
import {
  CTraderTickHistory,
  CTraderTokenError,
  symbolKey,
  type HistorySymbol,
} from '@tradebot/robot/ctrader';
import { CTraderAccessRefused, ctraderClient, type CTraderEndpoint } from './ctrader-accounts';

/** A linked account's grant, opened (decision 091): the account and its access token. */
export interface TickDownloadGrant {
  readonly ctidTraderAccountId: number;
  readonly accessToken: string;
}

export interface TickDownloadOptions {
  /** Instruments read at most, in the catalogue's order (decision 144). */
  readonly maxSymbols: number;
  /** Pages read per side and instrument at most. */
  readonly maxPagesPerSide: number;
  /** Share of the download done, 0 to 1, after every page. */
  readonly onProgress?: (done: number) => void;
  readonly signal?: AbortSignal;
}

/** What was downloaded: one series per instrument with quotes, and how many requests it took. */
export interface TickDownload {
  readonly series: QuoteSeries[];
  readonly symbols: readonly string[];
}

/**
 * The broker's recorded quotes of a linked account's instruments from `from` to `to` (decision
 * 144): one connection of its own (its own rate-limit window: five historical requests a second),
 * the application and the account authorised, the account's symbol list mapped to our catalogue
 * as the robot maps it (symbolKey), then each instrument's bid and ask ticks read back page by
 * page (CTraderTickHistory) and kept as a typed-array series before the next is read.
 */
export async function downloadBrokerTicks(
  endpoint: CTraderEndpoint,
  grant: TickDownloadGrant,
  from: number,
  to: number,
  options: TickDownloadOptions,
): Promise<TickDownload> {
  const client = ctraderClient(endpoint, 30_000);
  const catalogue = new InstrumentCatalogue();
  try {
    await client.connect();
    await client.authorizeAccount(grant.ctidTraderAccountId, grant.accessToken);
    const list = await client.request('ProtoOASymbolsListReq', {
      ctidTraderAccountId: grant.ctidTraderAccountId,
    });
    const byKey = new Map<string, number>();
    for (const light of (list.body.symbol as Record<string, unknown>[] | undefined) ?? []) {
      if (light.enabled === false || typeof light.symbolName !== 'string') continue;
      byKey.set(symbolKey(light.symbolName), Number(light.symbolId));
    }
    const symbols: HistorySymbol[] = [];
    for (const instrument of catalogue.instruments) {
      const symbolId = byKey.get(symbolKey(instrument.symbol));
      if (symbolId !== undefined) symbols.push({ symbolId, symbol: instrument.symbol });
    }
    const chosen = symbols.slice(0, options.maxSymbols);
    const history = new CTraderTickHistory(client);
    const series: QuoteSeries[] = [];
    const span = Math.max(1, to - from);
    for (const [index, symbol] of chosen.entries()) {
      const ticks = await history.ticks(grant.ctidTraderAccountId, [symbol], from, to, {
        maxPagesPerSide: options.maxPagesPerSide,
        ...(options.signal ? { signal: options.signal } : {}),
        onProgress: ({ side, reachedBack }) => {
          const sideDone = Math.min(1, Math.max(0, (to - reachedBack) / span));
          const sides = index * 2 + (side === 'ASK' ? 1 : 0) + sideDone;
          options.onProgress?.(sides / (2 * chosen.length));
        },
      });
      series.push(...ticksToSeries(ticks, catalogue));
    }
    return { series, symbols: chosen.map((s) => s.symbol) };
  } catch (error) {
    if (error instanceof CTraderTokenError) throw new CTraderAccessRefused();
    throw error;
  } finally {
    client.close();
  }
}
