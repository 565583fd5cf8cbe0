/** The cTrader Open API client and broker adapter (decisions 076, 077), for the server. */
export { CTraderClient, type CTraderClientOptions, type StateChange } from './client';
export { CTraderProtocol, type DecodedMessage, type MessageBody } from './protocol';
export {
  CTraderError,
  CTraderTokenError,
  CTraderApplicationAuthError,
  CTraderRateLimitError,
  CTraderConnectionError,
} from './errors';
export {
  CTraderBroker,
  type CTraderAccountLink,
  type CTraderBrokerOptions,
  symbolKey,
} from './ctrader-broker';
export {
  CTraderTickHistory,
  decodeTickData,
  mergeSides,
  type HistorySymbol,
  type SideQuote,
  type TickHistoryOptions,
  type TickHistoryProgress,
} from './tick-history';
export {
  brokerHours,
  brokerSession,
  type BrokerHoliday,
  type BrokerHours,
  type BrokerInterval,
  type BrokerSession,
} from './schedule';
