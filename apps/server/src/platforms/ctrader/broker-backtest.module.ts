import {
  apiErrorSchema,
  brokerBacktestPaths,
  brokerBacktestResponseSchema,
} from '@tradebot/contract';
import type { QuoteSeries } from '@tradebot/robot';
import { CTraderError, CTraderRateLimitError } from '@tradebot/robot/ctrader';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { requireUser, userOf } from '../../http/authenticate';
import { limitAttempts } from '../../http/rate-limits';
import { DrizzleBrokerBacktestsRepository } from '../../repositories/broker-backtests.repository';
import type { Clock } from '../../repositories/clock';
import type { CredentialsCipher } from '../../repositories/credentials-cipher';
import { CTraderGrantsRepository } from '../../repositories/ctrader-grants.repository';
import {
  BrokerBacktestFailed,
  BrokerBacktestService,
} from '../../services/broker-backtest.service';
import { replayInWorker } from './broker-backtest-replay';
import { CTraderAccessRefused, type CTraderEndpoint } from './ctrader-accounts';
import { downloadBrokerTicks } from './ctrader-tick-download';

/**
 * The broker-prices backtest's bounds (decision 144): the first instruments of the account in our
 * catalogue's order, and pages a side (a real broker's week of EURUSD is some hundreds of
 * thousands of quotes a side; thousands a page).
 */
const maxSymbols = 6;
const maxPagesPerSide = 400;

export interface BrokerBacktestModule {
  readonly service: BrokerBacktestService<QuoteSeries[]>;
  /** GET and POST brokerBacktestPaths.backtest; register under apiV1Prefix. */
  readonly routes: FastifyPluginAsyncZod;
}

/**
 * The robot on a linked cTrader account's own prices (issue 36, decision 144), composed: the
 * download on a connection of its own, the replay through the robot package's backtest in a
 * worker thread of its own (so the server's event loop never runs it), the state on
 * the link's row, and its two routes. The runs of this process stop when the server closes.
 */
export function brokerBacktestModule(
  app: FastifyInstance,
  deps: {
    db: Db;
    cipher: CredentialsCipher;
    /** Undefined when no cTrader application is configured: runs fail as the broker's. */
    endpoint: CTraderEndpoint | undefined;
    clock: Clock;
  },
): BrokerBacktestModule {
  const grants = new CTraderGrantsRepository(deps.db, deps.cipher, (_, error) => {
    app.log.error({ err: error }, 'broker backtest: a grant could not be opened');
  });
  const service = new BrokerBacktestService<QuoteSeries[]>({
    repository: new DrizzleBrokerBacktestsRepository(deps.db),
    now: () => deps.clock.now(),
    grantOf: async (userId) => {
      const [grant] = await grants.linked(userId);
      return grant;
    },
    download: async (grant, from, to, onProgress, signal) => {
      if (deps.endpoint === undefined) throw new BrokerBacktestFailed('BROKER_UNAVAILABLE');
      try {
        const { series } = await downloadBrokerTicks(deps.endpoint, grant, from, to, {
          maxSymbols,
          maxPagesPerSide,
          onProgress,
          signal,
        });
        return { series, quotes: series.reduce((sum, s) => sum + s.length, 0) };
      } catch (error) {
        if (error instanceof CTraderAccessRefused) throw new BrokerBacktestFailed('ACCESS_REFUSED');
        if (error instanceof CTraderRateLimitError) throw new BrokerBacktestFailed('RATE_LIMITED');
        if (error instanceof CTraderError) {
          app.log.warn({ err: error }, 'broker backtest: cTrader failed');
          throw new BrokerBacktestFailed('BROKER_UNAVAILABLE');
        }
        throw error;
      }
    },
    replay: async (series, risk, onProgress, signal) => {
      const summary = await replayInWorker(series, risk, onProgress, signal);
      if (summary === undefined) return undefined;
      return {
        instruments: summary.instruments.map(({ symbol, quotes, first, last }) => ({
          symbol,
          quotes,
          first: new Date(first).toISOString(),
          last: new Date(last).toISOString(),
        })),
        leftOut: [...summary.leftOut],
        operations: summary.operations,
        resultUsd: summary.resultUsd,
        depositUsd: summary.depositUsd,
        noEdgeShare: summary.noEdgeShare,
        marketOpenMinutes: summary.marketOpenMinutes,
      };
    },
    onFailure: (error) => {
      app.log.error({ err: error }, 'broker backtest: a run failed');
    },
  });
  app.addHook('onClose', () => service.close());

  const routes: FastifyPluginAsyncZod = async (v1) => {
    v1.addHook('onRequest', requireUser(v1));
    const errors = { 401: apiErrorSchema, 409: apiErrorSchema, 429: apiErrorSchema };
    v1.get(
      brokerBacktestPaths.backtest,
      {
        schema: {
          tags: ['linking'],
          summary: "The robot on the linked cTrader account's own prices: the last run",
          description:
            'The broker’s ticks of the last days replayed through the robot (decision 144): ' +
            'state none, running (with its percentage), done (with the result) or failed ' +
            '(with why). 409 when the user has no cTrader account linked.',
          security: [{ bearer: [] }],
          response: { 200: brokerBacktestResponseSchema, ...errors },
        },
      },
      async (request) => ({ data: await service.status(userOf(request).id) }),
    );
    v1.post(
      brokerBacktestPaths.backtest,
      {
        preHandler: limitAttempts(v1, 'ctraderLinking', (request) => userOf(request).id),
        schema: {
          tags: ['linking'],
          summary: "Run the robot on the linked cTrader account's own prices again",
          description:
            'Starts a run in the background unless one is under way (then answers it). 409 ' +
            'when the user has no cTrader account linked.',
          security: [{ bearer: [] }],
          response: { 202: brokerBacktestResponseSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(202).send({ data: await service.start(userOf(request).id) }),
    );
  };
  return { service, routes };
}
