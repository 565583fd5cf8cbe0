import { mondayToFriday, session, sundayToThursday, type TradingSchedule } from './trading-hours';

/*
 * The catalogue's tables of real instruments (spec §1 and §9: "over 400 assets"): currencies,
 * crypto listings, indices and commodities with their prices, spreads and trading hours.
 * `catalogue.ts` turns them into instruments; the shares are in `stock-listings.ts`.
 */

export const forexSchedule: TradingSchedule = {
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
export const alwaysOpen: TradingSchedule = { kind: 'always' };

export const hoursPerYear = {
  fiveDaysFullTime: 260 * 24,
  everyDay: 365 * 24,
};

/** Approximate 2024 value of one unit of each currency in USD, and its volatility against USD. */
export const currencies: Readonly<
  Record<string, { usd: number; volatility: number; name: string }>
> = {
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
export const esmaMajorCurrencies = new Set(['USD', 'EUR', 'JPY', 'GBP', 'CAD', 'CHF']);
/** Market quoting order of the eight most traded currencies: EURUSD, not USDEUR. */
export const quotingOrder = ['EUR', 'GBP', 'AUD', 'NZD', 'USD', 'CAD', 'CHF', 'JPY'];

export function forexPairs(): [string, string][] {
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

export const pairVolatilityOverrides: Readonly<Record<string, number>> = { EURDKK: 0.005 };

/** `TICKER|Name|price|volatility|relative spread` lines; the quote currency is USD unless set. */
export const cryptoListings = `
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
export const indexRows: IndexRow[] = [
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

export const commodityRows: CommodityRow[] = [
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

/** Typical CFD spread on shares: a few basis points of price, wider outside the US. */
export const shareRelativeSpread: Readonly<Record<string, number>> = { US: 0.00015 };
