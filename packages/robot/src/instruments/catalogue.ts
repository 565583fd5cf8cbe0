import type { Category } from '@tradebot/contract';
import { esmaRetailLeverage, type Instrument, type LeverageClass } from './instrument';
import { exchanges } from './stock-listings';
import {
  alwaysOpen,
  commodityRows,
  cryptoListings,
  currencies,
  esmaMajorCurrencies,
  forexPairs,
  forexSchedule,
  hoursPerYear,
  indexRows,
  pairVolatilityOverrides,
  quotingOrder,
  shareRelativeSpread,
} from './catalogue-data';

/*
 * The catalogue is generated from compact tables of real instruments (`catalogue-data.ts`,
 * `stock-listings.ts`; spec §1 and §9: "over 400 assets"). Conventions: FX pips are the market's (0.0001, or 0.01 against JPY and HUF);
 * elsewhere a pip is the power of ten at or just below the typical spread, which reproduces the
 * usual CFD conventions (gold 0.1, WTI 0.01, US shares 0.01) and keeps the spread within 1-10
 * pips, the range the TP = spread + 1 pip rule (spec §1) was written for.
 */

function currency(code: string) {
  const found = currencies[code];
  if (!found) throw new Error(`Unknown currency ${code}`);
  return found;
}

function forexInstrument(base: string, quote: string): Instrument {
  const symbol = base + quote;
  const b = currency(base);
  const q = currency(quote);
  const price = b.usd / q.usd;
  const smallUnitQuote = quote === 'JPY' || quote === 'HUF';
  const pipSize = smallUnitQuote ? 0.01 : 0.0001;
  const isMajor = esmaMajorCurrencies.has(base) && esmaMajorCurrencies.has(quote);
  const inQuotingOrder = quotingOrder.includes(base) && quotingOrder.includes(quote);
  // Majors trade at about 1 bp of price, the other G8 crosses at 1.5-2 bp, exotics at 3 bp.
  const relativeSpread = isMajor ? 0.9e-4 : inQuotingOrder ? 1.6e-4 : 3e-4;
  // Currencies against USD move with correlation ~0.5, hence the cross rule.
  const volatility =
    pairVolatilityOverrides[symbol] ??
    Math.sqrt(b.volatility ** 2 + q.volatility ** 2 - b.volatility * q.volatility);
  const leverageClass: LeverageClass = isMajor ? 'fx-major' : 'fx-minor';
  return {
    symbol,
    outputName: `${base}/${quote}`,
    category: 'forex',
    leverageClass,
    leverage: esmaRetailLeverage[leverageClass],
    icon1: base,
    icon2: quote,
    quoteCurrency: quote,
    digits: smallUnitQuote ? 3 : 5,
    pipSize,
    contractSize: 100_000,
    unitStep: 1_000,
    typicalSpreadPips: roundTo(Math.max(0.6, (relativeSpread * price) / pipSize), 1),
    annualVolatility: volatility,
    referencePrice: price,
    schedule: forexSchedule,
    openHoursPerYear: hoursPerYear.fiveDaysFullTime,
  };
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Power of ten at or just below the spread: the pip of non-FX instruments (see top). */
function pipBelow(spread: number): number {
  return powerOfTen(Math.floor(Math.log10(spread) + 1e-9));
}

/** 10^k without binary noise for negative k (1 / 10^5 is exact, 10^-5 is not). */
function powerOfTen(k: number): number {
  return k >= 0 ? 10 ** k : 1 / 10 ** -k;
}

function decimalsOf(step: number): number {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

interface PricedLine {
  ticker: string;
  name: string;
  price: number;
  rest: number[];
}

function parseLines(table: string): PricedLine[] {
  return table
    .trim()
    .split('\n')
    .map((line) => {
      const [ticker = '', name = '', price = '', ...rest] = line.split('|');
      return { ticker, name, price: Number(price), rest: rest.map(Number) };
    });
}

/** Rough USD value of a quote unit, for sizing steps only (ETH/BTC is quoted in bitcoin). */
function usdPerUnit(quote: string): number {
  return quote === 'BTC' ? 62_000 : currency(quote).usd;
}

function cryptoInstruments(): Instrument[] {
  return parseLines(cryptoListings).map(({ ticker, name, price, rest }) => {
    const [volatility = 0.8, relativeSpread = 0.001] = rest;
    const [base = ticker, quote = 'USD'] = ticker.split('/');
    const spread = price * relativeSpread;
    const pipSize = pipBelow(spread);
    const contractSize = 1;
    return {
      symbol: base + quote,
      outputName: quote === 'USD' ? `${name} (${base}/USD)` : `${name} (${base}/${quote})`,
      category: 'cripto',
      leverageClass: 'crypto',
      leverage: esmaRetailLeverage.crypto,
      icon1: base,
      icon2: quote,
      quoteCurrency: quote,
      digits: Math.max(2, decimalsOf(pipSize) + 1),
      pipSize,
      contractSize,
      // Quantity step worth roughly one US dollar or less.
      unitStep: Math.min(1, powerOfTen(Math.floor(Math.log10(1 / (price * usdPerUnit(quote)))))),
      typicalSpreadPips: roundTo(spread / pipSize, 1),
      annualVolatility: volatility,
      referencePrice: price,
      schedule: alwaysOpen,
      openHoursPerYear: hoursPerYear.everyDay,
    } satisfies Instrument;
  });
}

function stockInstruments(): Instrument[] {
  return exchanges.flatMap((exchange) =>
    parseLines(exchange.listings).map(({ ticker, name, price, rest }) => {
      const [volatility = exchange.defaultVolatility] = rest;
      const spread = price * (shareRelativeSpread[exchange.code] ?? 0.0004);
      // Shares trade in whole cents at least (whole yen in Tokyo).
      const pipSize = exchange.currency === 'JPY' ? 1 : Math.max(pipBelow(spread), 0.01);
      return {
        symbol: ticker + exchange.suffix,
        outputName: name,
        category: 'stocks',
        leverageClass: 'stock',
        leverage: esmaRetailLeverage.stock,
        icon1: ticker,
        icon2: exchange.country,
        quoteCurrency: exchange.currency,
        digits: exchange.currency === 'JPY' ? 0 : 2,
        pipSize,
        contractSize: 1,
        unitStep: 1,
        typicalSpreadPips: roundTo(Math.max(1, spread / pipSize), 1),
        annualVolatility: volatility,
        referencePrice: price,
        schedule: { kind: 'weekly', timeZone: exchange.timeZone, sessions: exchange.sessions },
        openHoursPerYear: 252 * exchange.hoursPerDay,
      } satisfies Instrument;
    }),
  );
}

function indexInstruments(): Instrument[] {
  return indexRows.map((row) => {
    const pipSize = pipBelow(row.spread);
    const leverageClass: LeverageClass = row.major ? 'index-major' : 'index-minor';
    return {
      symbol: row.symbol,
      outputName: row.name,
      category: 'index',
      leverageClass,
      leverage: esmaRetailLeverage[leverageClass],
      icon1: row.code,
      icon2: row.country,
      quoteCurrency: row.currency,
      digits: Math.max(2, decimalsOf(pipSize) + 1),
      pipSize,
      contractSize: 1,
      unitStep: 0.1,
      typicalSpreadPips: roundTo(row.spread / pipSize, 1),
      annualVolatility: row.symbol === 'USDX' ? 0.07 : 0.2,
      referencePrice: row.price,
      schedule: row.schedule,
      openHoursPerYear: row.hoursPerYear,
    } satisfies Instrument;
  });
}

function commodityInstruments(): Instrument[] {
  return commodityRows.map((row) => {
    const pipSize = pipBelow(row.spread);
    const leverageClass: LeverageClass = row.gold ? 'gold' : 'commodity';
    return {
      symbol: row.symbol,
      outputName: row.name,
      category: 'commodities',
      leverageClass,
      leverage: esmaRetailLeverage[leverageClass],
      icon1: row.icon,
      icon2: row.currency,
      quoteCurrency: row.currency,
      digits: Math.max(2, decimalsOf(pipSize) + 1),
      pipSize,
      contractSize: row.contractSize,
      unitStep: row.contractSize / 100,
      typicalSpreadPips: roundTo(row.spread / pipSize, 1),
      annualVolatility: row.volatility,
      referencePrice: row.price,
      schedule: row.schedule,
      openHoursPerYear: row.hoursPerYear,
    } satisfies Instrument;
  });
}

/** The full catalogue, in a stable order (the simulator's streams depend on it). */
export function buildCatalogue(): readonly Instrument[] {
  return [
    ...forexPairs().map(([base, quote]) => forexInstrument(base, quote)),
    ...cryptoInstruments(),
    ...stockInstruments(),
    ...indexInstruments(),
    ...commodityInstruments(),
  ];
}

export class InstrumentCatalogue {
  private readonly bySymbol: ReadonlyMap<string, Instrument>;
  readonly instruments: readonly Instrument[];

  constructor(instruments: readonly Instrument[] = buildCatalogue()) {
    this.instruments = instruments;
    const bySymbol = new Map<string, Instrument>();
    for (const instrument of instruments) {
      if (bySymbol.has(instrument.symbol)) throw new Error(`Duplicate symbol ${instrument.symbol}`);
      bySymbol.set(instrument.symbol, instrument);
    }
    this.bySymbol = bySymbol;
  }

  get(symbol: string): Instrument | undefined {
    return this.bySymbol.get(symbol);
  }

  require(symbol: string): Instrument {
    const instrument = this.bySymbol.get(symbol);
    if (!instrument) throw new Error(`Unknown instrument ${symbol}`);
    return instrument;
  }

  inCategory(category: Category): Instrument[] {
    return this.instruments.filter((instrument) => instrument.category === category);
  }
}

/** Display name of a currency, for documentation and the dashboard's tooltips. */
export function currencyName(code: string): string | undefined {
  return currencies[code]?.name;
}
