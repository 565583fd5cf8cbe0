import type {
  AccountState,
  AccountStatus,
  InstrumentCatalogue,
  OpenPositionView,
  TradeRecord,
} from '@tradebot/robot';
import { tradeRowOf, tradingAccountOf } from '../../domain/trading-rows';
import type { AccountProjection } from '../protocol/robot-protocol';

/** What the projection is built from: the robot's own plain reads, in its thread. */
export interface ProjectionSources {
  readonly catalogue: InstrumentCatalogue;
  account(accountId: string): AccountState | undefined;
  accountStatus(accountId: string): AccountStatus;
  /** The engine's open operations of the account. */
  openTrades(accountId: string): readonly TradeRecord[];
  /** The platform's open positions of the account, with their marks. */
  openPositions(accountId: string): readonly OpenPositionView[];
}

/** Newest first; the same instant by position id, descending. */
function newestFirst(a: TradeRecord, b: TradeRecord): number {
  return b.openedAt - a.openedAt || (a.positionId < b.positionId ? 1 : -1);
}

/**
 * The account as the dashboard shows it, in one read in the robot's thread (decision 070):
 * figures, the robot's idle reason and the open operations (newest first) with their live
 * profit, in the contract's shapes. Undefined for an account the platform does not know.
 */
export function projectAccount(
  sources: ProjectionSources,
  accountId: string,
): AccountProjection | undefined {
  const figures = sources.account(accountId);
  if (!figures) return undefined;
  const marks = new Map<string, number>();
  for (const position of sources.openPositions(accountId)) {
    marks.set(position.positionId, position.unrealisedProfitCents);
  }
  const currency = figures.currency ?? 'USD';
  const trades = [...sources.openTrades(accountId)]
    .sort(newestFirst)
    .map((trade) =>
      tradeRowOf(
        trade,
        sources.catalogue,
        trade.currency ?? currency,
        marks.get(trade.positionId) ?? 0,
      ),
    );
  return {
    accountId,
    figures,
    currency,
    account: tradingAccountOf(figures),
    status: sources.accountStatus(accountId),
    trades,
  };
}

/**
 * What a projection shows that can change, in a few numbers, read without building the
 * projection: when it equals the last one sent, nothing is pushed.
 */
export function projectionMark(sources: ProjectionSources, accountId: string): string {
  const figures = sources.account(accountId);
  if (!figures) return '';
  let marks = '';
  for (const position of sources.openPositions(accountId)) {
    marks += ` ${position.positionId}=${String(position.unrealisedProfitCents)}`;
  }
  const status = sources.accountStatus(accountId);
  return `${String(figures.balanceCents)} ${String(figures.equityCents)} ${String(
    figures.usedMarginCents,
  )} ${String(figures.depositsCents)} ${String(status.idleReason)}${activityMark(status)}${marks}`;
}

/** How often, at most, a new evaluation alone moves the mark (decision 147). */
export const activityMarkMs = 5_000;

/**
 * What the dashboard's category lines show (decision 147): each state, its whole percents and
 * counts, and when it last evaluated, to `activityMarkMs`: a tick alone does not push a
 * projection, and a line's age is never more than that behind.
 */
function activityMark(status: AccountStatus): string {
  let mark = '';
  for (const entry of status.activity?.categories ?? []) {
    const evaluated =
      entry.evaluatedAt === null
        ? '-'
        : String(Math.floor(Date.parse(entry.evaluatedAt) / activityMarkMs));
    mark += ` ${entry.category}:${entry.state}:${String(entry.openOperations)}:${evaluated}`;
    if (entry.state === 'LEARNING') {
      mark += `:${String(Math.floor((100 * entry.outcomes) / Math.max(1, entry.outcomesNeeded)))}`;
    } else if (entry.state === 'MARKET_CLOSED') mark += `:${String(entry.opensAt)}`;
    else if (entry.best) {
      mark += `:${String(Math.round(entry.best.probability * 100))}/${String(
        Math.round(entry.best.requiredProbability * 100),
      )}`;
    }
  }
  return mark;
}
