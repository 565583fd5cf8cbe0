import { apiV1Prefix } from '@tradebot/contract';
import { InstrumentCatalogue } from '@tradebot/robot';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { trackRecordRoutes } from '../../http/v1/track-record.routes';
import { tradingRoutes } from '../../http/v1/trading.routes';
import { TrackRecordRepository } from '../../repositories/track-record.repository';
import { registerRealQuotes } from '../../real-quotes/register-real-quotes';
import { TrackRecordService } from '../../services/track-record.service';
import { TradingService } from '../../services/trading.service';
import { userFeatures } from '../../plugins/user-features';
import { provide } from '../services';

/** The user's trading (settings, figures, history, kill switch) and the public track record. */
export const trading = fp(
  async (app: FastifyInstance) => {
    const { config, robot, clock, robotNow } = app;
    const catalogue = robot?.catalogue ?? new InstrumentCatalogue();
    provide(app, {
      trading: new TradingService(
        app.users,
        app.tradingRepository,
        catalogue,
        clock,
        robotNow,
        robot,
        app.closedPages,
        // The kill switch's robot-stopped notice (decision 088): notifications react.
        {
          killSwitchPulled: (userId, closed) =>
            app.events.publish('KillSwitchPulled', { userId, closed }),
        },
        config.ROBOT_LEASES ? { owner: app.owner } : undefined,
        app.accountCommands,
      ),
      trackRecord: new TrackRecordService(
        new TrackRecordRepository(app.database.db),
        catalogue,
        robot !== undefined,
        clock,
        robotNow,
        // The robot on recorded real quotes, computed in the background (decision 142).
        registerRealQuotes(app, config),
      ),
    });
    await app.register(
      async (v1) => {
        await v1.register(tradingRoutes);
        await v1.register(trackRecordRoutes);
        // Close one operation (decision 152) and download my data (decision 153).
        await v1.register(
          userFeatures({
            db: app.database.db,
            clock,
            users: app.users,
            trading: app.tradingRepository,
            catalogue,
            commands: app.accountCommands,
          }),
        );
      },
      { prefix: apiV1Prefix },
    );
  },
  { name: 'trading', dependencies: ['foundation', 'http', 'robot'] },
);
