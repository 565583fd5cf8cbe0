import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundToDigits } from '../instruments/instrument';
import type { RobotSettings } from '../settings/robot-settings';
import { catalogue, createRig, robotOn, tuesday } from './engine-test-rig';

const symbols = ['EURUSD', 'USDJPY', 'EURGBP', 'XAUUSD', 'BTCUSD', 'US500', 'AAPL.US', 'COCOA'];
const accountIds = ['a', 'b', 'c'];

type Command =
  | { kind: 'tick'; symbol: number; movePips: number; spreadPoints: number; minutes: number }
  | { kind: 'settings'; account: number; settings: RobotSettings }
  | { kind: 'kill' }
  | { kind: 'resume' };

const settingsArbitrary: fc.Arbitrary<RobotSettings> = fc.record({
  bot_on: fc.boolean(),
  risk: fc.integer({ min: 1, max: 5 }),
  categories_enabled: fc.record({
    forex: fc.boolean(),
    cripto: fc.boolean(),
    stocks: fc.boolean(),
    index: fc.boolean(),
    commodities: fc.boolean(),
    all: fc.boolean(),
  }),
});

const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      symbol: fc.integer({ min: 0, max: symbols.length - 1 }),
      // Mostly small moves, sometimes a gap large enough to test close-out and
      // negative-balance protection.
      movePips: fc.oneof(
        { weight: 9, arbitrary: fc.integer({ min: -60, max: 60 }) },
        { weight: 1, arbitrary: fc.integer({ min: -8000, max: 8000 }) },
      ),
      spreadPoints: fc.integer({ min: 1, max: 40 }),
      minutes: fc.integer({ min: 0, max: 90 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('settings' as const),
      account: fc.integer({ min: 0, max: accountIds.length - 1 }),
      settings: settingsArbitrary,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'kill' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resume' as const }) },
);

describe('engine invariants under any sequence of ticks and settings', () => {
  it('keeps the exposure cap, the TP/SL geometry and the ledger identity', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(commandArbitrary, { minLength: 1, maxLength: 60 }),
        async (commands) => {
          const rig = await createRig({
            accounts: Object.fromEntries(
              accountIds.map((id, i) => [id, robotOn({ all: true }, 1 + 2 * i)]),
            ),
            depositCents: 500_000,
          });
          const mids = new Map(symbols.map((s) => [s, catalogue.require(s).referencePrice]));
          let time = tuesday;
          for (const command of commands) {
            switch (command.kind) {
              case 'tick': {
                const symbol = symbols[command.symbol] ?? 'EURUSD';
                const instrument = catalogue.require(symbol);
                const mid = Math.max(
                  (mids.get(symbol) ?? 1) + command.movePips * instrument.pipSize,
                  instrument.pipSize * 100,
                );
                mids.set(symbol, mid);
                const point = 1 / 10 ** instrument.digits;
                const bid = roundToDigits(mid, instrument.digits);
                const ask = roundToDigits(bid + command.spreadPoints * point, instrument.digits);
                time += command.minutes * 60_000;
                await rig.tick(symbol, bid, ask, time);
                break;
              }
              case 'settings':
                rig.engine.applySettings(accountIds[command.account] ?? 'a', command.settings);
                break;
              case 'kill':
                rig.engine.halt('property test');
                await rig.engine.idle();
                break;
              case 'resume':
                rig.engine.resume();
                break;
            }

            const trades = await rig.store.trades();
            for (const trade of trades) {
              // spec §1, §9: open operations never above 50% of equity.
              expect(trade.usedMarginAfterEntryCents).toBeLessThanOrEqual(
                0.5 * trade.equityAtEntryCents,
              );
              // spec §1, §9: d = spread + 1 pip from the closing price; SL = 5d.
              const instrument = catalogue.require(trade.symbol);
              const halfPoint = 0.5 / 10 ** instrument.digits + 1e-9 * trade.entryAsk;
              const d = trade.entryAsk - trade.entryBid + instrument.pipSize;
              const closing = trade.side === 'buy' ? trade.entryBid : trade.entryAsk;
              expect(Math.abs(Math.abs(trade.takeProfit - closing) - d)).toBeLessThanOrEqual(
                halfPoint,
              );
              expect(Math.abs(Math.abs(trade.stopLoss - closing) - 5 * d)).toBeLessThanOrEqual(
                halfPoint,
              );
            }
            for (const accountId of accountIds) {
              const account = rig.engine.account(accountId);
              if (!account) throw new Error('account missing');
              expect(account.balanceCents).toBe(
                account.depositsCents + account.realisedProfitCents,
              );
              expect(account.balanceCents).toBeGreaterThanOrEqual(0);
              const booked = trades
                .filter((t) => t.accountId === accountId && t.profitCents !== null)
                .reduce((sum, t) => sum + (t.profitCents ?? 0), 0);
              expect(booked).toBe(account.realisedProfitCents);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
