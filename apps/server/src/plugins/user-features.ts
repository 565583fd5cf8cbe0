import type { InstrumentCatalogue } from '@tradebot/robot';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/database';
import { dataExportRoutes } from '../http/v1/data-export.routes';
import { operationClosingRoutes } from '../http/v1/operation-closing.routes';
import type { AccountCommands } from '../robot/link/account-commands';
import { AdminAuditRepository } from '../repositories/admin-audit.repository';
import type { Clock } from '../repositories/clock';
import { DrizzleDataExportStore } from '../repositories/data-export.repository';
import type { TradingStore } from '../repositories/trading.repository';
import type { UsersStore } from '../repositories/users.repository';
import { DataExportService } from '../services/data-export.service';
import { OperationClosingService } from '../services/operation-closing.service';

export interface UserFeaturesDependencies {
  readonly db: Db;
  readonly clock: Clock;
  readonly users: UsersStore;
  readonly trading: TradingStore;
  readonly catalogue: InstrumentCatalogue;
  /** The robot trading an account: here, or the process holding its lease (decision 105). */
  readonly commands: AccountCommands;
}

/**
 * What a user does with their own account without writing to support (issue 39): close one
 * operation (decision 152) and download their data (decision 153). Registered under the API
 * prefix; builds its own services.
 */
export function userFeatures(dependencies: UserFeaturesDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    const closing = new OperationClosingService(dependencies);
    await app.register(operationClosingRoutes(closing));
    const audit = new AdminAuditRepository(dependencies.db);
    const exports = new DataExportService(
      new DrizzleDataExportStore(dependencies.db),
      {
        // The console's audit log (decision 117), with no admin: the user did it.
        exported: (userId, at, summary) =>
          audit.record(
            {
              adminId: null,
              action: 'user.data_exported',
              targetType: 'user',
              targetId: userId,
              before: null,
              after: summary,
            },
            at,
          ),
      },
      dependencies.clock,
    );
    await app.register(dataExportRoutes(exports));
  };
}
