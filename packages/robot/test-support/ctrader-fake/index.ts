/** The local fakes of cTrader's Open API and OAuth servers, for tests and e2e (decisions 077, 091). */
export {
  ALWAYS_OPEN,
  FakeCTraderServer,
  type FakeAccount,
  type FakeQuote,
  type FakeSymbol,
} from './fake-ctrader-server';
export {
  FakeCTraderOAuthServer,
  type FakeCTraderOAuthOptions,
  spotwareAuthorizePath,
  spotwareTokenPath,
} from './fake-ctrader-oauth';
export {
  BRL_ACCOUNT,
  BTCUSD,
  DEMO_ACCOUNT,
  EURUSD,
  NZDUSD,
  USDBRL,
  XAUUSD,
  FAKE_APP,
  FOREX_HOURS,
  closedFor,
  fakeOptions,
} from './fixtures';
export { serveRecordedTicks, type ServedTicks } from './recorded-ticks';
