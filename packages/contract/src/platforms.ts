/**
 * The built-in trading platform (ARCHITECTURE.md: the paper brokerage every user can link,
 * with simulated money). Linking opens a demo account with this starting balance
 * (docs/decisions/049-linking-and-the-platform-port.md), the same $10,000 the demo user starts with.
 */
export const builtInPlatform = {
  id: 'tradebot-demo',
  startingBalanceCents: 1_000_000,
} as const;
export type TradingPlatformId = typeof builtInPlatform.id;

/** Answers to the broker search's questions (docs/decisions/050-broker-directory-and-search.md). */
export const experienceLevels = ['none', 'some', 'experienced'] as const;
export type ExperienceLevel = (typeof experienceLevels)[number];

/** Platforms a broker offers, as the directory spells them. */
export const brokerPlatforms = [
  'web',
  'mobile',
  'metatrader4',
  'metatrader5',
  'ctrader',
  'tradingview',
] as const;
export type BrokerPlatform = (typeof brokerPlatforms)[number];

/** Countries the search asks about first (spec §1: Latin America); any other ISO code is valid. */
export const brokerSearchCountries = [
  'AR',
  'BO',
  'BR',
  'CL',
  'CO',
  'CR',
  'EC',
  'GT',
  'MX',
  'PA',
  'PE',
  'PY',
  'DO',
  'SV',
  'UY',
] as const;
