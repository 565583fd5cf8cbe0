import { apiV1Prefix } from '@tradebot/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { geoRoutes } from '../../http/v1/geo.routes';
import { geoipDatabase } from '../../repositories/geo.repository';
import { GeoService } from '../../services/geo.service';
import { provide } from '../services';

/** The visitor's country from their address (registration, the simulated checkout). */
export const geo = fp(
  async (app: FastifyInstance) => {
    provide(app, { geo: new GeoService(geoipDatabase) });
    await app.register(geoRoutes, { prefix: apiV1Prefix });
  },
  { name: 'geo', dependencies: ['foundation', 'http'] },
);
