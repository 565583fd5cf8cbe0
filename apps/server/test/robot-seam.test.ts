import { MessagePort } from 'node:worker_threads';
import type { TradingData } from '@tradebot/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RobotEvent } from '../src/robot/protocol/robot-protocol';
import { v1 } from './helpers/accounts';
import { marketTickMs, robotOf, trader, useRobotApp } from './helpers/trading';

/**
 * The robot's seam (decision 070): the robot's thread owns the accounts' projections and sends
 * one typed stream of events carrying them; the main thread stores and relays them and never
 * asks the robot for a view after an event.
 */
describe('the robot seam', () => {
  // Price moves pushed rarely: whatever the reads get after an event comes with the event.
  const context = useRobotApp({ ROBOT_MIRROR_MS: '10000' });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The operations the main thread sends to the robot's thread (requests and notices). */
  function recordRequests(): string[] {
    const ops: string[] = [];
    const { postMessage: original } = Object.getOwnPropertyDescriptors(MessagePort.prototype);
    const send = original.value as (this: MessagePort, ...args: unknown[]) => void;
    vi.spyOn(MessagePort.prototype, 'postMessage').mockImplementation(function (
      this: MessagePort,
      message: unknown,
      transfer?: Parameters<MessagePort['postMessage']>[1],
    ) {
      if (typeof message === 'object' && message !== null && 'op' in message) {
        ops.push(String(message.op));
      }
      send.call(this, message, transfer);
    });
    return ops;
  }

  async function getAllData(headers: Record<string, string>): Promise<TradingData> {
    const response = await context.app.inject({
      method: 'GET',
      url: `${v1}/get-all-data`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ data: TradingData }>().data;
  }

  it('an operation opened crosses the thread once: the browser and the dashboard get it from its event', async () => {
    const { headers, userId } = await trader(context.app);
    context.publisher.listening.add(userId);
    // A first read watches the account.
    await getAllData(headers);
    const robot = robotOf(context.app);
    const events: RobotEvent[] = [];
    robot.onEvent((event) => {
      if ('accountId' in event && event.accountId === userId) events.push(event);
    });
    const ops = recordRequests();
    let opened = false;
    for (let tick = 0; tick < 120 && !opened; tick++) {
      ops.length = 0;
      context.clock.advance(marketTickMs);
      await robot.advance();
      await robot.settled();
      await new Promise((resolve) => setTimeout(resolve, 20));
      opened = context.publisher.to(userId).length > 0;
    }
    expect(opened).toBe(true);
    const data = await getAllData(headers);

    // Only the test's own requests crossed: no view was asked for after the event.
    expect(ops).toEqual(['advance', 'settled']);
    const update = context.publisher.to(userId).at(-1);
    const event = events.find((each) => each.type === 'PositionOpened');
    if (event?.type !== 'PositionOpened') throw new Error('no PositionOpened event');
    expect(event.projection.trades.map((row) => row.id)).toContain(event.trade.id);
    expect(event.trade).toMatchObject({ status: 'open', closeReason: null, category: 'cripto' });
    // Several operations can open in one tick: the screen shows the newest projection.
    const newest = events.findLast((each) => 'projection' in each);
    if (!newest || !('projection' in newest)) throw new Error('no event with a projection');
    expect(newest.projection.trades.map((row) => row.id)).toContain(event.trade.id);
    expect(update?.trades).toEqual(newest.projection.trades);
    expect(update?.account).toEqual(newest.projection.account);
    expect(data.trades).toEqual(newest.projection.trades);
    expect(data.account).toEqual(newest.projection.account);
    // Sequence numbers increase along the stream.
    const seqs = events.map((each) => each.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });
});
