import type { BrokerHours } from '../../src/broker/ctrader/schedule';
import {
  ALWAYS_OPEN,
  type FakeAccount,
  type FakeCTraderOptions,
  type FakeDynamicLeverage,
  type FakeSymbol,
} from './fake-ctrader-server';

/** A demo account and a few symbols as a cTrader broker lists them, for tests. */
export const FAKE_APP = { clientId: 'app-client-id', clientSecret: 'app-client-secret' } as const;

export const DEMO_ACCOUNT: FakeAccount = {
  ctidTraderAccountId: 4_400_101,
  accessToken: 'demo-access-token',
  isLive: false,
  traderLogin: 5_001_234,
  brokerName: 'Fake Markets',
  balance: 1_000_000, // 10,000.00 with moneyDigits 2
  moneyDigits: 2,
  leverageInCents: 10_000, // 1:100
  depositAssetId: 15,
};

/**
 * A demo account in Brazilian reais (decision 097): the fake values its amounts in BRL, through
 * USDBRL, and the robot must size its orders in reais.
 */
export const BRL_ACCOUNT: FakeAccount = {
  ctidTraderAccountId: 4_400_202,
  accessToken: 'brl-access-token',
  isLive: false,
  traderLogin: 5_002_468,
  brokerName: 'Fake Markets',
  balance: 2_000_000, // R$ 20,000.00 with moneyDigits 2
  moneyDigits: 2,
  leverageInCents: 10_000, // 1:100
  depositAssetId: 22, // BRL in FAKE_ASSETS
};

/**
 * Dynamic leverages as a cTrader broker sets them per symbol (decision 102): 1:500 on any size
 * (above the fake accounts' 1:100, so it changes nothing for them), gold at 1:20 (less than an account's 1:100 or 1:500), and a two-tier one, 1:200 up
 * to $100,000 of position notional per side and 1:50 above.
 */
export const HIGH_LEVERAGE = 1;
export const LOW_LEVERAGE = 2;
export const TWO_TIER_LEVERAGE = 3;
export const FAKE_LEVERAGES: readonly FakeDynamicLeverage[] = [
  { leverageId: HIGH_LEVERAGE, tiers: [{ volume: 1_000_000_000_00, leverage: 500 }] },
  { leverageId: LOW_LEVERAGE, tiers: [{ volume: 1_000_000_000_00, leverage: 20 }] },
  {
    leverageId: TWO_TIER_LEVERAGE,
    tiers: [
      { volume: 100_000_00, leverage: 200 },
      { volume: 1_000_000_000_00, leverage: 50 },
    ],
  },
];

export const EURUSD: FakeSymbol = {
  symbolId: 1,
  symbolName: 'EURUSD',
  digits: 5,
  pipPosition: 4,
  lotSize: 10_000_000,
  minVolume: 100_000, // 1,000 units
  stepVolume: 100_000,
  maxVolume: 1_000_000_000,
  bid: 1.085,
  ask: 1.08512,
  leverageId: HIGH_LEVERAGE,
};

export const XAUUSD: FakeSymbol = {
  symbolId: 41,
  symbolName: 'XAUUSD',
  digits: 2,
  pipPosition: 2,
  lotSize: 10_000,
  minVolume: 100, // 1 ounce
  stepVolume: 100,
  maxVolume: 10_000_000,
  bid: 2650.1,
  ask: 2650.45,
  leverageId: LOW_LEVERAGE,
};

/**
 * Bitcoin against the dollar as a cTrader broker may list it: a pip of one dollar, volumes from
 * 0.01 BTC in steps of 0.01 BTC (1 in the API's cents of a unit), a spread of about $31 (our
 * catalogue's 0.05%). It trades every day, so tests that need the robot to trade run on any day.
 */
export const BTCUSD: FakeSymbol = {
  hours: ALWAYS_OPEN,
  symbolId: 101,
  symbolName: 'BTCUSD',
  digits: 2,
  pipPosition: 0,
  lotSize: 100, // 1 BTC
  minVolume: 1, // 0.01 BTC
  stepVolume: 1,
  maxVolume: 10_000, // 100 BTC
  bid: 62_000,
  ask: 62_031,
  leverageId: HIGH_LEVERAGE,
};

/** The conversion symbol of a BRL account: one US dollar in reais. */
export const USDBRL: FakeSymbol = {
  symbolId: 57,
  symbolName: 'USDBRL',
  digits: 4,
  pipPosition: 4,
  lotSize: 10_000_000,
  minVolume: 100_000,
  stepVolume: 100_000,
  maxVolume: 1_000_000_000,
  bid: 5.0,
  ask: 5.002,
  leverageId: HIGH_LEVERAGE,
};

const day = 86_400;
/** 17:00 and 17:05 in seconds after midnight. */
const rollover = 17 * 3600;
const reopen = rollover + 5 * 60;

/**
 * Forex hours as a broker lists them (give a symbol `{ ...EURUSD, hours: FOREX_HOURS }`): in
 * New York time, from Sunday 17:05 to Friday 17:00, with a 5-minute break at each day's 17:00
 * rollover, and Christmas Day a holiday every year.
 */
export const FOREX_HOURS: BrokerHours = {
  timeZone: 'America/New_York',
  intervals: [0, 1, 2, 3, 4].map((weekday) => ({
    startSecond: weekday * day + reopen,
    endSecond: (weekday + 1) * day + rollover,
  })),
  holidays: [
    {
      name: 'Christmas Day',
      timeZone: 'America/New_York',
      holidayDate: Date.UTC(2026, 11, 25) / 86_400_000,
      isRecurring: true,
      startSecond: 0,
      endSecond: day,
    },
  ],
};

/**
 * Hours closed from a minute ago for `minutes` (then open the rest of the week): a test closes a
 * symbol now with `server.setHours(id, closedFor(10))`, whatever the day.
 */
export function closedFor(minutes: number, now: number = Date.now()): BrokerHours {
  const week = 7 * day;
  const second = Math.floor(now / 1000);
  const days = Math.floor(second / day);
  const sunday = (days - ((days + 4) % 7)) * day; // 1 January 1970 was a Thursday
  const ofWeek = second - sunday;
  return {
    timeZone: 'UTC',
    // Open from the end of the closure round the week to its start (an interval that wraps).
    intervals: [
      { startSecond: (ofWeek + minutes * 60) % week, endSecond: (ofWeek - 60 + week) % week },
    ],
    holidays: [],
  };
}

export function fakeOptions(overrides: Partial<FakeCTraderOptions> = {}): FakeCTraderOptions {
  return {
    ...FAKE_APP,
    accounts: [DEMO_ACCOUNT],
    symbols: [EURUSD, XAUUSD],
    leverages: FAKE_LEVERAGES,
    ...overrides,
  };
}

/** The New Zealand dollar, as the shared OANDA sample records it (decision 144). */
export const NZDUSD: FakeSymbol = {
  symbolId: 12,
  symbolName: 'NZDUSD',
  digits: 5,
  pipPosition: 4,
  lotSize: 10_000_000,
  minVolume: 100_000,
  stepVolume: 100_000,
  maxVolume: 1_000_000_000,
  bid: 0.6,
  ask: 0.60014,
  leverageId: HIGH_LEVERAGE,
};
