import { apiV1Prefix, ctraderCallbackRoute } from '@tradebot/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { brokerSearchRoutes } from '../../http/v1/broker-search.routes';
import { ctraderLinkingRoutes } from '../../http/v1/ctrader-linking.routes';
import { linkingRoutes } from '../../http/v1/linking.routes';
import { BuiltInTradingPlatform } from '../../platforms/built-in-platform';
import { ctraderEndpoint, listCTraderAccounts } from '../../platforms/ctrader/ctrader-accounts';
import { brokerBacktestModule } from '../../platforms/ctrader/broker-backtest.module';
import { CTraderOAuth } from '../../platforms/ctrader/ctrader-oauth';
import { BrokersRepository } from '../../repositories/brokers.repository';
import { CTraderAuthorizationsRepository } from '../../repositories/ctrader-authorizations.repository';
import { argon2PasswordHasher } from '../../repositories/password-hasher';
import { PlatformUsersRepository } from '../../repositories/platform-users.repository';
import { TradingPlatformLinksRepository } from '../../repositories/trading-platform-links.repository';
import { BrokerSearchService } from '../../services/broker-search.service';
import { CTraderLinkingService } from '../../services/ctrader-linking.service';
import { LinkingService } from '../../services/linking.service';
import { UnlinkingService } from '../../services/unlinking.service';
import { provide } from '../services';

/** How often grants near their expiry are looked for: they last 30 days and are refreshed 7 ahead. */
const ctraderRefreshTickMs = 10 * 60_000;

export interface LinkingOptions {
  /** Refresh cTrader grants on a timer (default); tests call `ctraderLinking.refreshDue()`. */
  refreshTimers: boolean;
}

/**
 * Linking a broker account: the built-in platform, cTrader through Spotware's OAuth2 (decision
 * 091), unlinking, and the broker search. A link or unlink is published as `BrokerLinked` /
 * `BrokerUnlinked`, a refreshed grant as `GrantRefreshed`.
 */
export const linking = fp(
  async (app: FastifyInstance, options: LinkingOptions) => {
    const { config, database, users, clock, events, keys, accountOpening } = app;
    const { db } = database;
    const { trading, accountSettings } = app.services;
    const platformLinks = new TradingPlatformLinksRepository(db);
    const verifyPassword = accountSettings.verifyPassword.bind(accountSettings);
    // Without the application's credentials the cTrader choice is shown disabled.
    const endpoint = ctraderEndpoint(config);
    // The robot on the linked account's own recent prices (decision 144), run after each link.
    const brokerBacktest = brokerBacktestModule(app, {
      db,
      cipher: keys.credentials,
      endpoint,
      clock,
    });
    events.on('BrokerLinked', ({ userId }) => {
      brokerBacktest.service.afterLink(userId);
    });
    const ctraderLinking = new CTraderLinkingService({
      users,
      links: platformLinks,
      authorizations: new CTraderAuthorizationsRepository(db),
      cipher: keys.credentials,
      clock,
      claims: app.jobClaims,
      oauth:
        endpoint &&
        new CTraderOAuth({
          clientId: endpoint.clientId,
          clientSecret: endpoint.clientSecret,
          authorizeUrl: config.CTRADER_AUTH_URL,
          tokenUrl: config.CTRADER_TOKEN_URL,
          redirectUri: () => config.CTRADER_REDIRECT_URI ?? app.links.at(ctraderCallbackRoute),
        }),
      environment: config.CTRADER_ENVIRONMENT,
      listAccounts: (accessToken) =>
        endpoint ? listCTraderAccounts(endpoint, accessToken) : Promise.resolve([]),
      onLinked: (row) => events.publish('BrokerLinked', { userId: row.userId }),
      onTokenRefreshed: (userId) => events.publish('GrantRefreshed', { userId }),
      onFailure: (error, what) => {
        app.log.error({ err: error }, `ctrader: ${what} failed`);
      },
    });
    provide(app, {
      ctraderLinking,
      unlinking: new UnlinkingService({
        users,
        links: platformLinks,
        clock,
        verifyPassword,
        closeEverything: async (user) => (await trading.kill(user, { notify: false })).closed,
        openOperations: (userId) => trading.openOperationCount(userId),
        onUnlinked: (row) => events.publish('BrokerUnlinked', { userId: row.userId }),
      }),
      linking: new LinkingService(
        users,
        platformLinks,
        new BuiltInTradingPlatform(
          new PlatformUsersRepository(db),
          argon2PasswordHasher,
          accountOpening && ((accountId, cents) => accountOpening.open(accountId, cents)),
        ),
        keys.credentials,
        clock,
        async (row) => {
          await accountOpening?.linked(row);
        },
        (error, what) => {
          app.log.error({ err: error }, `trading platform: ${what} failed`);
        },
      ),
      brokerSearch: new BrokerSearchService(new BrokersRepository(db), clock),
    });
    // A cTrader token refused before its expiry is refreshed once, then read again by the robot;
    // a refused refresh leaves the user to link again (decision 113). The robot's stream ends
    // when it stops (robot runtime).
    app.robot?.onEvent((event) => {
      if (event.type === 'BrokerStatus' && event.status === 'BROKER_RECONNECT_NEEDED') {
        ctraderLinking.refreshRefused(event.accountId).catch((error: unknown) => {
          app.log.error({ err: error }, 'ctrader: refreshing a refused token failed');
        });
      }
    });
    // Grants refreshed before they expire, each by one process (decision 091).
    if (options.refreshTimers && ctraderLinking.configured) {
      app.jobs.add({
        name: 'ctrader-refresh',
        everyMs: ctraderRefreshTickMs,
        run: () => ctraderLinking.refreshDue(),
        failure: 'ctrader: the refresh run failed',
      });
    }
    await app.register(
      async (v1) => {
        await v1.register(linkingRoutes);
        await v1.register(ctraderLinkingRoutes);
        await v1.register(brokerBacktest.routes);
        await v1.register(brokerSearchRoutes);
      },
      { prefix: apiV1Prefix },
    );
  },
  {
    name: 'linking',
    dependencies: ['foundation', 'http', 'robot', 'trading', 'accounts', 'robot-runtime', 'access'],
  },
);
