import type { Category } from '@tradebot/contract';
import { esmaRetailLeverage, type Instrument, type LeverageClass } from './instrument';
import { exchanges } from './stock-listings';
import { mondayToFriday, session, sundayToThursday, type TradingSchedule } from './trading-hours';

/*
 * The catalogue is generated from compact tables of real instruments (spec §1 and §9: "over
 * 400 assets"). Conventions: FX pips are the market's (0.0001, or 0.01 against JPY and HUF);
 * elsewhere a pip is the power of ten at or just below the typical spread, which reproduces the
 * usual CFD conventions (gold 0.1, WTI 0.01, US shares 0.01) and keeps the spread within 1-10
 * pips, the range the TP = spread + 1 pip rule (spec §1) was written for.
 */

const forexSchedule: TradingSchedule = {
  kind: 'weekly',
  timeZone: 'America/New_York',
  // 24/5: Sunday 17:00 New York to Friday 17:00, each day restarting at the 17:00 rollover.
  sessions: [session(sundayToThursday, '17:00', '17:00')],
};
/** CME Globex-style hours, shared by US index CFDs, metals and energy: a one-hour daily break. */
const globexSchedule: TradingSchedule = {
  kind: 'weekly',
  timeZone: 'America/New_York',
  sessions: [session(sundayToThursday, '18:00', '17:00')],
};
const alwaysOpen: TradingSchedule = { kind: 'always' };

const hoursPerYear = {
  fiveDaysFullTime: 260 * 24,
  everyDay: 365 * 24,
};

/** Approximate 2024 value of one unit of each currency in USD, and its volatility against USD. */
const currencies: Readonly<Record<string, { usd: number; volatility: number; name: string }>> = {
  USD: { usd: 1, volatility: 0, name: 'US Dollar' },
  EUR: { usd: 1.08, volatility: 0.08, name: 'Euro' },
  GBP: { usd: 1.27, volatility: 0.09, name: 'British Pound' },
  JPY: { usd: 1 / 151, volatility: 0.1, name: 'Japanese Yen' },
  CHF: { usd: 1 / 0.9, volatility: 0.08, name: 'Swiss Franc' },
  CAD: { usd: 1 / 1.36, volatility: 0.07, name: 'Canadian Dollar' },
  AUD: { usd: 0.66, volatility: 0.1, name: 'Australian Dollar' },
  NZD: { usd: 0.6, volatility: 0.1, name: 'New Zealand Dollar' },
  SEK: { usd: 1 / 10.6, volatility: 0.11, name: 'Swedish Krona' },
  NOK: { usd: 1 / 10.8, volatility: 0.12, name: 'Norwegian Krone' },
  DKK: { usd: 1 / 6.9, volatility: 0.08, name: 'Danish Krone' },
  PLN: { usd: 1 / 4, volatility: 0.11, name: 'Polish Zloty' },
  HUF: { usd: 1 / 360, volatility: 0.13, name: 'Hungarian Forint' },
  CZK: { usd: 1 / 23, volatility: 0.1, name: 'Czech Koruna' },
  TRY: { usd: 1 / 32.5, volatility: 0.2, name: 'Turkish Lira' },
  ZAR: { usd: 1 / 18.6, volatility: 0.16, name: 'South African Rand' },
  MXN: { usd: 1 / 17, volatility: 0.14, name: 'Mexican Peso' },
  SGD: { usd: 1 / 1.35, volatility: 0.05, name: 'Singapore Dollar' },
  HKD: { usd: 1 / 7.82, volatility: 0.01, name: 'Hong Kong Dollar' },
  CNH: { usd: 1 / 7.25, volatility: 0.045, name: 'Offshore Yuan' },
  ILS: { usd: 1 / 3.7, volatility: 0.1, name: 'Israeli Shekel' },
  BRL: { usd: 1 / 5.1, volatility: 0.16, name: 'Brazilian Real' },
};

/** ESMA's major currencies: a pair of two of them is a major (30:1). */
const esmaMajorCurrencies = new Set(['USD', 'EUR', 'JPY', 'GBP', 'CAD', 'CHF']);
/** Market quoting order of the eight most traded currencies: EURUSD, not USDEUR. */
const quotingOrder = ['EUR', 'GBP', 'AUD', 'NZD', 'USD', 'CAD', 'CHF', 'JPY'];

function forexPairs(): [string, string][] {
  const pairs: [string, string][] = [];
  quotingOrder.forEach((base, i) => {
    for (const quote of quotingOrder.slice(i + 1)) pairs.push([base, quote]);
  });
  const exotics = [
    'SEK',
    'NOK',
    'DKK',
    'PLN',
    'HUF',
    'CZK',
    'TRY',
    'ZAR',
    'MXN',
    'SGD',
    'HKD',
    'CNH',
    'ILS',
  ];
  for (const exotic of exotics) pairs.push(['USD', exotic], ['EUR', exotic]);
  for (const exotic of ['SEK', 'NOK', 'DKK', 'PLN', 'ZAR', 'TRY', 'SGD', 'HKD'])
    pairs.push(['GBP', exotic]);
  for (const exotic of ['ZAR', 'TRY', 'MXN', 'SGD', 'NOK', 'SEK', 'HKD', 'CNH'])
    pairs.push([exotic, 'JPY']);
  pairs.push(['NOK', 'SEK'], ['AUD', 'SGD'], ['NZD', 'SGD'], ['USD', 'BRL']);
  return pairs;
}

function currency(code: string) {
  const found = currencies[code];
  if (!found) throw new Error(`Unknown currency ${code}`);
  return found;
}

/** Pegged or managed crosses whose volatility a correlation rule would overstate. */
const pairVolatilityOverrides: Readonly<Record<string, number>> = { EURDKK: 0.005 };

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

/** `TICKER|Name|price|volatility|relative spread` lines; the quote currency is USD unless set. */
const cryptoListings = `
BTC|Bitcoin|62000|0.55|0.0005
ETH|Ethereum|3000|0.7|0.0006
XRP|Ripple|0.55|0.8|0.001
LTC|Litecoin|80|0.75|0.001
BCH|Bitcoin Cash|400|0.8|0.001
ADA|Cardano|0.45|0.85|0.001
DOT|Polkadot|6.5|0.85|0.001
LINK|Chainlink|14|0.9|0.001
SOL|Solana|140|0.95|0.0008
DOGE|Dogecoin|0.12|1|0.001
AVAX|Avalanche|30|0.95|0.001
XLM|Stellar|0.11|0.8|0.0012
UNI|Uniswap|8|0.95|0.0012
ATOM|Cosmos|7|0.85|0.0012
ETC|Ethereum Classic|25|0.85|0.0012
FIL|Filecoin|5|0.95|0.0015
TRX|TRON|0.12|0.6|0.0012
EOS|EOS|0.7|0.85|0.0015
AAVE|Aave|90|0.95|0.0015
ALGO|Algorand|0.15|0.9|0.0015
XTZ|Tezos|0.8|0.85|0.0015
NEAR|NEAR Protocol|5|1|0.0012
ICP|Internet Computer|9|1|0.0015
BNB|BNB|550|0.6|0.0008
APT|Aptos|8|1|0.0015
ARB|Arbitrum|0.9|1|0.0015
OP|Optimism|2|1|0.0015
SHIB|Shiba Inu|0.000018|1|0.0015
MKR|Maker|2500|0.9|0.0015
SAND|The Sandbox|0.35|1|0.0015
MANA|Decentraland|0.35|1|0.0015
AXS|Axie Infinity|6|1|0.0015
CRV|Curve DAO|0.4|1|0.0015
DASH|Dash|27|0.85|0.0015
ZEC|Zcash|25|0.85|0.0015
COMP|Compound|50|0.95|0.0015
SNX|Synthetix|2|1|0.0015
GRT|The Graph|0.2|1|0.0015
HBAR|Hedera|0.08|0.95|0.0015
VET|VeChain|0.03|0.95|0.0015
TON|Toncoin|6|0.9|0.0015
POL|Polygon|0.5|0.95|0.0015
BTC/EUR|Bitcoin|57000|0.55|0.0006
ETH/EUR|Ethereum|2800|0.7|0.0007
BTC/GBP|Bitcoin|49000|0.55|0.0007
ETH/BTC|Ethereum|0.048|0.45|0.0008
BTC/JPY|Bitcoin|9300000|0.55|0.0007
`;

interface IndexRow {
  symbol: string;
  name: string;
  code: string;
  country: string;
  currency: string;
  price: number;
  major: boolean;
  spread: number;
  schedule: TradingSchedule;
  hoursPerYear: number;
}

const europeanIndexHours: TradingSchedule = {
  kind: 'weekly',
  timeZone: 'Europe/Berlin',
  sessions: [session(mondayToFriday, '01:15', '22:00')],
};
const europeanCashPlusEvening: TradingSchedule = {
  kind: 'weekly',
  timeZone: 'Europe/Berlin',
  sessions: [session(mondayToFriday, '08:00', '22:00')],
};

/** ESMA names the major indices: FTSE 100, CAC 40, DAX, Dow, S&P 500, Nasdaq, Nikkei, ASX 200, Euro Stoxx 50. */
const indexRows: IndexRow[] = [
  {
    symbol: 'US500',
    name: 'US 500 (S&P 500)',
    code: 'SPX',
    country: 'US',
    currency: 'USD',
    price: 5200,
    major: true,
    spread: 0.5,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'US30',
    name: 'US 30 (Dow Jones)',
    code: 'DJI',
    country: 'US',
    currency: 'USD',
    price: 39000,
    major: true,
    spread: 2,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'USTEC',
    name: 'US Tech 100 (Nasdaq 100)',
    code: 'NDX',
    country: 'US',
    currency: 'USD',
    price: 18000,
    major: true,
    spread: 1.5,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'US2000',
    name: 'US Small Cap 2000 (Russell 2000)',
    code: 'RUT',
    country: 'US',
    currency: 'USD',
    price: 2050,
    major: false,
    spread: 0.4,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'DE40',
    name: 'Germany 40 (DAX)',
    code: 'DAX',
    country: 'DE',
    currency: 'EUR',
    price: 18000,
    major: true,
    spread: 1.2,
    schedule: europeanIndexHours,
    hoursPerYear: 260 * 20.75,
  },
  {
    symbol: 'FR40',
    name: 'France 40 (CAC 40)',
    code: 'CAC',
    country: 'FR',
    currency: 'EUR',
    price: 8000,
    major: true,
    spread: 1,
    schedule: europeanIndexHours,
    hoursPerYear: 260 * 20.75,
  },
  {
    symbol: 'EU50',
    name: 'Euro 50 (Euro Stoxx 50)',
    code: 'SX5E',
    country: 'EU',
    currency: 'EUR',
    price: 4950,
    major: true,
    spread: 1,
    schedule: europeanIndexHours,
    hoursPerYear: 260 * 20.75,
  },
  {
    symbol: 'UK100',
    name: 'UK 100 (FTSE 100)',
    code: 'UKX',
    country: 'GB',
    currency: 'GBP',
    price: 8000,
    major: true,
    spread: 1,
    schedule: {
      kind: 'weekly',
      timeZone: 'Europe/London',
      sessions: [session(mondayToFriday, '01:00', '21:00')],
    },
    hoursPerYear: 260 * 20,
  },
  {
    symbol: 'JP225',
    name: 'Japan 225 (Nikkei 225)',
    code: 'NKY',
    country: 'JP',
    currency: 'JPY',
    price: 38500,
    major: true,
    spread: 8,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'AU200',
    name: 'Australia 200 (S&P/ASX 200)',
    code: 'AS51',
    country: 'AU',
    currency: 'AUD',
    price: 7700,
    major: true,
    spread: 1,
    schedule: {
      kind: 'weekly',
      timeZone: 'Australia/Sydney',
      sessions: [
        session(mondayToFriday, '09:50', '16:30'),
        session(mondayToFriday, '17:10', '07:00'),
      ],
    },
    hoursPerYear: 260 * 20.5,
  },
  {
    symbol: 'HK50',
    name: 'Hong Kong 50 (Hang Seng)',
    code: 'HSI',
    country: 'HK',
    currency: 'HKD',
    price: 17500,
    major: false,
    spread: 6,
    schedule: {
      kind: 'weekly',
      timeZone: 'Asia/Hong_Kong',
      sessions: [
        session(mondayToFriday, '09:15', '12:00'),
        session(mondayToFriday, '13:00', '16:30'),
        session(mondayToFriday, '17:15', '03:00'),
      ],
    },
    hoursPerYear: 260 * 16,
  },
  {
    symbol: 'ES35',
    name: 'Spain 35 (IBEX 35)',
    code: 'IBEX',
    country: 'ES',
    currency: 'EUR',
    price: 11000,
    major: false,
    spread: 5,
    schedule: europeanCashPlusEvening,
    hoursPerYear: 260 * 14,
  },
  {
    symbol: 'IT40',
    name: 'Italy 40 (FTSE MIB)',
    code: 'FTSEMIB',
    country: 'IT',
    currency: 'EUR',
    price: 34000,
    major: false,
    spread: 10,
    schedule: europeanCashPlusEvening,
    hoursPerYear: 260 * 14,
  },
  {
    symbol: 'NL25',
    name: 'Netherlands 25 (AEX)',
    code: 'AEX',
    country: 'NL',
    currency: 'EUR',
    price: 880,
    major: false,
    spread: 0.2,
    schedule: europeanCashPlusEvening,
    hoursPerYear: 260 * 14,
  },
  {
    symbol: 'CH20',
    name: 'Switzerland 20 (SMI)',
    code: 'SMI',
    country: 'CH',
    currency: 'CHF',
    price: 11500,
    major: false,
    spread: 3,
    schedule: europeanCashPlusEvening,
    hoursPerYear: 260 * 14,
  },
  {
    symbol: 'CN50',
    name: 'China A50 (FTSE China A50)',
    code: 'XIN9',
    country: 'CN',
    currency: 'USD',
    price: 12500,
    major: false,
    spread: 8,
    schedule: {
      kind: 'weekly',
      timeZone: 'Asia/Shanghai',
      sessions: [
        session(mondayToFriday, '09:00', '16:30'),
        session(mondayToFriday, '17:00', '04:45'),
      ],
    },
    hoursPerYear: 260 * 19,
  },
  {
    symbol: 'USDX',
    name: 'US Dollar Index',
    code: 'DXY',
    country: 'US',
    currency: 'USD',
    price: 104,
    major: false,
    spread: 0.03,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
];

interface CommodityRow {
  symbol: string;
  name: string;
  icon: string;
  currency: string;
  price: number;
  volatility: number;
  contractSize: number;
  spread: number;
  gold: boolean;
  schedule: TradingSchedule;
  hoursPerYear: number;
}

const iceSoftsSchedule = (open: string, close: string): TradingSchedule => ({
  kind: 'weekly',
  timeZone: 'America/New_York',
  sessions: [session(mondayToFriday, open, close)],
});
const cbotGrainsSchedule: TradingSchedule = {
  kind: 'weekly',
  timeZone: 'America/Chicago',
  sessions: [
    session(sundayToThursday, '19:00', '07:45'),
    session(mondayToFriday, '08:30', '13:20'),
  ],
};
const lmeSchedule: TradingSchedule = {
  kind: 'weekly',
  timeZone: 'Europe/London',
  sessions: [session(mondayToFriday, '01:00', '19:00')],
};

const commodityRows: CommodityRow[] = [
  {
    symbol: 'XAUUSD',
    name: 'Gold',
    icon: 'XAU',
    currency: 'USD',
    price: 2330,
    volatility: 0.15,
    contractSize: 100,
    spread: 0.3,
    gold: true,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'XAUEUR',
    name: 'Gold / Euro',
    icon: 'XAU',
    currency: 'EUR',
    price: 2160,
    volatility: 0.15,
    contractSize: 100,
    spread: 0.5,
    gold: true,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'XAGUSD',
    name: 'Silver',
    icon: 'XAG',
    currency: 'USD',
    price: 28,
    volatility: 0.28,
    contractSize: 5000,
    spread: 0.025,
    gold: false,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'XAGEUR',
    name: 'Silver / Euro',
    icon: 'XAG',
    currency: 'EUR',
    price: 26,
    volatility: 0.28,
    contractSize: 5000,
    spread: 0.035,
    gold: false,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'XPTUSD',
    name: 'Platinum',
    icon: 'XPT',
    currency: 'USD',
    price: 980,
    volatility: 0.25,
    contractSize: 100,
    spread: 2,
    gold: false,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'XPDUSD',
    name: 'Palladium',
    icon: 'XPD',
    currency: 'USD',
    price: 1000,
    volatility: 0.35,
    contractSize: 100,
    spread: 4,
    gold: false,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'USOIL',
    name: 'WTI Crude Oil',
    icon: 'WTI',
    currency: 'USD',
    price: 78,
    volatility: 0.35,
    contractSize: 1000,
    spread: 0.03,
    gold: false,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'UKOIL',
    name: 'Brent Crude Oil',
    icon: 'BRENT',
    currency: 'USD',
    price: 82,
    volatility: 0.32,
    contractSize: 1000,
    spread: 0.03,
    gold: false,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'NGAS',
    name: 'Natural Gas (Henry Hub)',
    icon: 'NG',
    currency: 'USD',
    price: 2.3,
    volatility: 0.6,
    contractSize: 10_000,
    spread: 0.004,
    gold: false,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'GASOLINE',
    name: 'RBOB Gasoline',
    icon: 'RB',
    currency: 'USD',
    price: 2.5,
    volatility: 0.35,
    contractSize: 42_000,
    spread: 0.004,
    gold: false,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'HEATOIL',
    name: 'Heating Oil',
    icon: 'HO',
    currency: 'USD',
    price: 2.6,
    volatility: 0.33,
    contractSize: 42_000,
    spread: 0.004,
    gold: false,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'COPPER',
    name: 'Copper (COMEX)',
    icon: 'HG',
    currency: 'USD',
    price: 4.4,
    volatility: 0.22,
    contractSize: 25_000,
    spread: 0.003,
    gold: false,
    schedule: globexSchedule,
    hoursPerYear: 260 * 23,
  },
  {
    symbol: 'ALUMINIUM',
    name: 'Aluminium (LME)',
    icon: 'ALI',
    currency: 'USD',
    price: 2500,
    volatility: 0.2,
    contractSize: 25,
    spread: 3,
    gold: false,
    schedule: lmeSchedule,
    hoursPerYear: 260 * 18,
  },
  {
    symbol: 'ZINC',
    name: 'Zinc (LME)',
    icon: 'ZNC',
    currency: 'USD',
    price: 2800,
    volatility: 0.24,
    contractSize: 25,
    spread: 4,
    gold: false,
    schedule: lmeSchedule,
    hoursPerYear: 260 * 18,
  },
  {
    symbol: 'NICKEL',
    name: 'Nickel (LME)',
    icon: 'NI',
    currency: 'USD',
    price: 17500,
    volatility: 0.3,
    contractSize: 6,
    spread: 25,
    gold: false,
    schedule: lmeSchedule,
    hoursPerYear: 260 * 18,
  },
  {
    symbol: 'COFFEE',
    name: 'Arabica Coffee (cents/lb)',
    icon: 'KC',
    currency: 'USD',
    price: 220,
    volatility: 0.35,
    contractSize: 375,
    spread: 0.3,
    gold: false,
    schedule: iceSoftsSchedule('04:15', '13:30'),
    hoursPerYear: 260 * 9.25,
  },
  {
    symbol: 'COCOA',
    name: 'Cocoa (USD/t)',
    icon: 'CC',
    currency: 'USD',
    price: 8000,
    volatility: 0.5,
    contractSize: 1,
    spread: 15,
    gold: false,
    schedule: iceSoftsSchedule('04:45', '13:30'),
    hoursPerYear: 260 * 8.75,
  },
  {
    symbol: 'SUGAR',
    name: 'Raw Sugar No. 11 (cents/lb)',
    icon: 'SB',
    currency: 'USD',
    price: 19,
    volatility: 0.3,
    contractSize: 1120,
    spread: 0.03,
    gold: false,
    schedule: iceSoftsSchedule('03:30', '13:00'),
    hoursPerYear: 260 * 9.5,
  },
  {
    symbol: 'COTTON',
    name: 'Cotton No. 2 (cents/lb)',
    icon: 'CT',
    currency: 'USD',
    price: 80,
    volatility: 0.22,
    contractSize: 500,
    spread: 0.12,
    gold: false,
    schedule: {
      kind: 'weekly',
      timeZone: 'America/New_York',
      sessions: [session(sundayToThursday, '21:00', '14:20')],
    },
    hoursPerYear: 260 * 17.3,
  },
  {
    symbol: 'CORN',
    name: 'Corn (cents/bushel)',
    icon: 'ZC',
    currency: 'USD',
    price: 440,
    volatility: 0.22,
    contractSize: 50,
    spread: 0.5,
    gold: false,
    schedule: cbotGrainsSchedule,
    hoursPerYear: 260 * 17.6,
  },
  {
    symbol: 'WHEAT',
    name: 'Wheat (cents/bushel)',
    icon: 'ZW',
    currency: 'USD',
    price: 600,
    volatility: 0.3,
    contractSize: 50,
    spread: 0.75,
    gold: false,
    schedule: cbotGrainsSchedule,
    hoursPerYear: 260 * 17.6,
  },
  {
    symbol: 'SOYBEAN',
    name: 'Soybeans (cents/bushel)',
    icon: 'ZS',
    currency: 'USD',
    price: 1180,
    volatility: 0.18,
    contractSize: 50,
    spread: 0.75,
    gold: false,
    schedule: cbotGrainsSchedule,
    hoursPerYear: 260 * 17.6,
  },
];

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

/** Typical CFD spread on shares: a few basis points of price, wider outside the US. */
const shareRelativeSpread: Readonly<Record<string, number>> = { US: 0.00015 };

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
