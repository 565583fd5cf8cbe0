import type { TradeRow } from '@tradebot/contract';
import type { InstrumentCatalogue, TradeRecord } from '@tradebot/robot';
import type { AccountCommands } from '../robot/link/account-commands';
import { RobotUnavailable } from '../robot/link/robot-runtime';
import type { TradingStore } from '../repositories/trading.repository';
import type { UsersStore } from '../repositories/users.repository';
import { KeyedQueue } from './keyed-queue';
import { operationCurrency, tradeRowOf } from '../domain/trading-rows';
import {
  OperationAlreadyClosed,
  OperationCloseUnavailable,
  OperationCloseUnconfirmed,
  OperationNotFound,
  TradingNotAuthorized,
  TradingNotLinked,
} from './trading.errors';

export interface OperationClosingPorts {
  readonly users: Pick<UsersStore, 'findSettings'>;
  readonly trading: Pick<TradingStore, 'operation' | 'accountLink'>;
  readonly catalogue: InstrumentCatalogue;
  /** The robot trading the account: here, or the process holding its lease (decision 105). */
  readonly commands: Pick<AccountCommands, 'reachable' | 'closePosition'>;
}

/**
 * The user closes one open operation at the market (issue 39, decision 152), as the kill switch
 * closes them all: the command reaches the robot holding the account, which asks the account's
 * platform (built-in or cTrader) to close that position with the reason `manual`. What the
 * answer says comes from the stored operation after the command, never from the request.
 */
export class OperationClosingService {
  /** A double click's second request waits for the first, then finds the operation closed. */
  private readonly queue = new KeyedQueue();

  constructor(private readonly ports: OperationClosingPorts) {}

  close(userId: string, positionId: string): Promise<TradeRow> {
    return this.queue.run(userId, () => this.closeNow(userId, positionId));
  }

  private async closeNow(userId: string, positionId: string): Promise<TradeRow> {
    const { users, trading, commands } = this.ports;
    // Linked, whatever the billing state: like the kill switch, closing stays possible after
    // access ended (decision 063).
    const settings = await users.findSettings(userId);
    if (!settings?.linked) {
      throw settings?.authorized ? new TradingNotLinked() : new TradingNotAuthorized();
    }
    const before = await trading.operation(userId, positionId);
    if (!before) throw new OperationNotFound();
    // Closed by the user already (a double click, a retry after a lost answer): the same answer.
    if (before.closeReason === 'manual') return this.rowOf(userId, before);
    if (before.closeReason !== 'open') throw new OperationAlreadyClosed();
    if (!commands.reachable()) throw new OperationCloseUnavailable();
    let asked: boolean;
    try {
      asked = await commands.closePosition(userId, positionId);
    } catch (error) {
      if (error instanceof RobotUnavailable) throw new OperationCloseUnavailable();
      throw error;
    }
    const after = await trading.operation(userId, positionId);
    if (after?.closeReason === 'manual') return this.rowOf(userId, after);
    // Its take-profit or stop-loss got there first.
    if (after && after.closeReason !== 'open') throw new OperationAlreadyClosed();
    throw asked ? new OperationCloseUnconfirmed() : new OperationCloseUnavailable();
  }

  private async rowOf(userId: string, trade: TradeRecord): Promise<TradeRow> {
    const link = await this.ports.trading.accountLink(userId);
    return tradeRowOf(trade, this.ports.catalogue, operationCurrency(trade, link));
  }
}
