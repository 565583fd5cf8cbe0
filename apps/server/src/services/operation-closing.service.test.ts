import { InstrumentCatalogue, type TradeRecord } from '@tradebot/robot';
import { describe, expect, it } from 'vitest';
import { RobotUnavailable } from '../robot/link/robot-runtime';
import type { SettingsRow } from '../repositories/users.repository';
import { OperationClosingService } from './operation-closing.service';
import {
  OperationAlreadyClosed,
  OperationCloseUnavailable,
  OperationCloseUnconfirmed,
  OperationNotFound,
  TradingNotAuthorized,
  TradingNotLinked,
} from './trading.errors';

const opened = Date.parse('2026-11-27T14:00:00Z');

/** Ana's open EURUSD buy on the built-in platform. */
const open: TradeRecord = {
  positionId: 'P7',
  clientOrderId: 'ana-1',
  accountId: 'ana',
  symbol: 'EURUSD',
  category: 'forex',
  side: 'buy',
  units: 10_000,
  openedAt: opened,
  entryBid: 1.1,
  entryAsk: 1.1001,
  entryPrice: 1.1001,
  pipSize: 0.0001,
  takeProfit: 1.1004,
  stopLoss: 1.0986,
  probability: 0.61,
  breakEvenProbability: 0.55,
  marginCents: 36_670,
  equityAtEntryCents: 1_000_000,
  freeMarginAtEntryCents: 1_000_000,
  usedMarginAfterEntryCents: 36_670,
  closedAt: null,
  closePrice: null,
  closeReason: 'open',
  profitCents: null,
  currency: 'USD',
};

function closedBy(reason: TradeRecord['closeReason']): TradeRecord {
  return {
    ...open,
    closedAt: opened + 60_000,
    closePrice: 1.1,
    closeReason: reason,
    profitCents: -100,
  };
}

interface RigOptions {
  settings?: Partial<SettingsRow> | null;
  /** The stored operation, before and after the robot's command. */
  stored?: [TradeRecord | undefined, TradeRecord | undefined];
  reachable?: boolean;
  /** What the robot answers: whether it asked its platform, or a failure. */
  robot?: boolean | Error;
}

/** The service on plain stubs; `calls` lists the commands the robot received. */
function rig(options: RigOptions = {}) {
  const calls: string[] = [];
  const [stored, after] = options.stored ?? [open, closedBy('manual')];
  let before = stored;
  const service = new OperationClosingService({
    users: {
      findSettings: (userId) =>
        Promise.resolve(
          options.settings === null
            ? undefined
            : ({ userId, linked: true, authorized: true, ...options.settings } as SettingsRow),
        ),
    },
    trading: {
      operation: (accountId, positionId) =>
        Promise.resolve(
          accountId === 'ana' && positionId === before?.positionId ? before : undefined,
        ),
      accountLink: () =>
        Promise.resolve({ kind: 'simulated', currency: 'USD', ctidTraderAccountId: null }),
    },
    catalogue: new InstrumentCatalogue(),
    commands: {
      reachable: () => options.reachable ?? true,
      closePosition: (accountId, positionId) => {
        calls.push(`${accountId} ${positionId}`);
        const answer = options.robot ?? true;
        if (answer instanceof Error) return Promise.reject(answer);
        before = after;
        return Promise.resolve(answer);
      },
    },
  });
  return { service, calls };
}

describe('OperationClosingService (decision 152)', () => {
  it('asks the robot holding the account to close it, and answers the row closed by the user', async () => {
    const { service, calls } = rig();
    const row = await service.close('ana', 'P7');
    expect(calls).toEqual(['ana P7']);
    expect(row).toMatchObject({
      id: 'P7',
      status: 'closed',
      closeReason: 'manual',
      closePrice: 1.1,
      Profit: -1,
      currency: 'USD',
    });
  });

  it('answers a double click once: the second request waits and finds it closed by the user', async () => {
    const { service, calls } = rig();
    const [first, second] = await Promise.all([
      service.close('ana', 'P7'),
      service.close('ana', 'P7'),
    ]);
    expect(calls).toEqual(['ana P7']);
    expect(second).toEqual(first);
  });

  it("refuses an operation that is not the user's, without asking the robot", async () => {
    const { service, calls } = rig();
    await expect(service.close('bruno', 'P7')).rejects.toThrow(OperationNotFound);
    await expect(service.close('ana', 'P8')).rejects.toThrow(OperationNotFound);
    expect(calls).toEqual([]);
  });

  it('refuses one closed otherwise, before or while asking (409)', async () => {
    const before = rig({ stored: [closedBy('tp'), undefined] });
    await expect(before.service.close('ana', 'P7')).rejects.toThrow(OperationAlreadyClosed);
    expect(before.calls).toEqual([]);
    // Its stop-loss got there first: the robot had nothing left to close.
    const meanwhile = rig({ stored: [open, closedBy('sl')], robot: false });
    await expect(meanwhile.service.close('ana', 'P7')).rejects.toThrow(OperationAlreadyClosed);
  });

  it('says the robot does not answer (503), the operation still open', async () => {
    const down = rig({ reachable: false });
    await expect(down.service.close('ana', 'P7')).rejects.toThrow(OperationCloseUnavailable);
    expect(down.calls).toEqual([]);
    const noHolder = rig({ robot: new RobotUnavailable() });
    await expect(noHolder.service.close('ana', 'P7')).rejects.toThrow(OperationCloseUnavailable);
    const notThere = rig({ stored: [open, open], robot: false });
    await expect(notThere.service.close('ana', 'P7')).rejects.toThrow(OperationCloseUnavailable);
    const slowBroker = rig({ stored: [open, open], robot: true });
    await expect(slowBroker.service.close('ana', 'P7')).rejects.toThrow(OperationCloseUnconfirmed);
  });

  it('lets a failure it does not know go up as it is', async () => {
    const broken = new Error('the worker crashed');
    const { service } = rig({ robot: broken });
    await expect(service.close('ana', 'P7')).rejects.toBe(broken);
  });

  it('needs a linked account, as the kill switch does', async () => {
    await expect(rig({ settings: { linked: false } }).service.close('ana', 'P7')).rejects.toThrow(
      TradingNotLinked,
    );
    await expect(
      rig({ settings: { linked: false, authorized: false } }).service.close('ana', 'P7'),
    ).rejects.toThrow(TradingNotAuthorized);
    // Linked without access any more (decision 063): closing stays possible.
    const { service } = rig({ settings: { authorized: false } });
    await expect(service.close('ana', 'P7')).resolves.toMatchObject({ closeReason: 'manual' });
  });
});
