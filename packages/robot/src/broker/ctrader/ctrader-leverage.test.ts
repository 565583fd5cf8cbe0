import { afterEach, describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../../instruments/catalogue';
import { RiskGate, categoryBit, riskSettingsOf, sizingInputs } from '../../risk/risk-gate';
import { tradeGeometry } from '../../risk/trade-geometry';
import { defaultRobotSettings } from '../../settings/robot-settings';
import type { ExecutionReport, OrderRequest } from '../broker-adapter';
import type { CTraderBroker } from './ctrader-broker';
import {
  FakeCTraderServer,
  type FakeSymbol,
} from '../../../test-support/ctrader-fake/fake-ctrader-server';
import {
  DEMO_ACCOUNT,
  EURUSD,
  LOW_LEVERAGE,
  TWO_TIER_LEVERAGE,
  fakeOptions,
} from '../../../test-support/ctrader-fake/fixtures';
import { connectBroker, until } from '../../../test-support/ctrader-fake/harness';
import { CTraderProtocol } from './protocol';

/**
 * Dynamic leverage per symbol (decision 102): an account at 1:500 trading a symbol its broker
 * levers at 1:20 (or in tiers) is sized and capped at the symbol's leverage, not the account's.
 */
const protocol = CTraderProtocol.load();
const catalogue = new InstrumentCatalogue();
const ACCOUNT = 'acc-1';
const AT_500 = { ...DEMO_ACCOUNT, leverageInCents: 50_000 }; // 1:500, $10,000.00
const EQUITY_CENTS = 1_000_000;
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function brokerOn(symbol: FakeSymbol, warnings: string[] = []) {
  const server = new FakeCTraderServer({
    ...fakeOptions({ accounts: [AT_500], symbols: [symbol] }),
    protocol,
  });
  await server.listen();
  cleanups.push(() => server.close());
  const { broker, close } = await connectBroker(server, ACCOUNT, {
    catalogue,
    account: AT_500,
    warn: (message) => warnings.push(message),
  });
  const reports: ExecutionReport[] = [];
  broker.onReport((report) => reports.push(report));
  await broker.start();
  cleanups.push(close);
  await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
  return { broker, reports };
}

function order(units: number): OrderRequest {
  return {
    clientOrderId: `${ACCOUNT}:1`,
    accountId: ACCOUNT,
    symbol: 'EURUSD',
    side: 'buy',
    units,
    takeProfit: 0,
    stopLoss: 0,
  };
}

/** The risk gate's units for a buy signal, on the adapter's own figures, rate and leverage. */
function gateUnits(broker: CTraderBroker): number {
  const instrument = catalogue.require('EURUSD');
  const tick = broker.lastTick('EURUSD');
  if (tick === undefined) throw new Error('no tick');
  const geometry = tradeGeometry('buy', tick, instrument);
  const signal = { symbol: 'EURUSD', side: 'buy' as const, probability: 0.99, geometry, time: 0 };
  const gate = new RiskGate({ broker, control: { state: 'ACTIVE' }, dayStarted: () => undefined });
  const settings = {
    ...defaultRobotSettings,
    bot_on: true,
    categories_enabled: { ...defaultRobotSettings.categories_enabled, forex: true },
  };
  const decision = gate.evaluate(
    {
      ...sizingInputs(instrument, signal, 1),
      signal,
      marketOpen: true,
      minimumEdge: 0.01,
      categoryBit: categoryBit(instrument.category),
      day: 1,
    },
    {
      accountId: ACCOUNT,
      ...riskSettingsOf(settings),
      reservedMarginCents: 0,
      dayNumber: 1,
      dayStartEquityCents: EQUITY_CENTS,
    },
    false,
  );
  if (!decision?.allowed) throw new Error(`not allowed: ${JSON.stringify(decision)}`);
  return decision.units;
}

const filled = (reports: ExecutionReport[]) => reports.find((r) => r.kind === 'filled');

describe('cTrader dynamic leverage per symbol (decision 102)', () => {
  const lowLevered = { ...EURUSD, leverageId: LOW_LEVERAGE }; // 1:20 at the broker

  it('sizes a 1:20 symbol on a 1:500 account at 10% of capital in margin, by the broker', async () => {
    const { broker, reports } = await brokerOn(lowLevered);
    expect(broker.symbolLeverage(ACCOUNT, 'EURUSD')).toBe(20);
    const units = gateUnits(broker);
    broker.submitOrder(order(units));
    await until(() => filled(reports) !== undefined, 'the fill');
    const used = broker.accountFigures(ACCOUNT)?.usedMarginCents ?? 0;
    // 10% of $10,000.00 at risk level 1, within one 1,000-unit step (1,000 x 1.08512 / 20 = $54).
    expect(Math.abs(used - 0.1 * EQUITY_CENTS)).toBeLessThanOrEqual(5_426);
  });

  it('never lets one order take open margin past half the equity at the symbol leverage', async () => {
    const { broker, reports } = await brokerOn(lowLevered);
    // 200,000 units: $434 of margin at the account's 1:500, $10,851 at the symbol's 1:20.
    broker.submitOrder(order(200_000));
    await until(() => filled(reports) !== undefined, 'the fill');
    // Trimmed to what $5,000.00 holds at 1:20: 5,000 x 20 / 1.08512, floored to 1,000 units.
    expect(filled(reports)).toMatchObject({ units: 92_000 });
    expect(broker.accountFigures(ACCOUNT)?.usedMarginCents).toBeLessThanOrEqual(EQUITY_CENTS / 2);
  });

  it('applies the tier the position notional falls in, and the lowest one before an order', async () => {
    const { broker, reports } = await brokerOn({ ...EURUSD, leverageId: TWO_TIER_LEVERAGE });
    expect(broker.symbolLeverage(ACCOUNT, 'EURUSD')).toBe(50);
    expect(broker.symbolLeverage(ACCOUNT, 'EURUSD', 50_000_00)).toBe(200);
    expect(broker.symbolLeverage(ACCOUNT, 'EURUSD', 200_000_00)).toBe(50);
    // 400,000 units, $434,048 of notional: past the $100,000 tier, so at 1:50 ($8,681 of
    // margin, 87% of equity) where the account's 1:500 would say $868. Trimmed to $5,000.00.
    broker.submitOrder(order(400_000));
    await until(() => filled(reports) !== undefined, 'the fill');
    expect(filled(reports)).toMatchObject({ units: 230_000 });
    const used = broker.accountFigures(ACCOUNT)?.usedMarginCents ?? 0;
    expect(used).toBeLessThanOrEqual(EQUITY_CENTS / 2);
    expect(used).toBe(Math.round((230_000 * 1.08512 * 100) / 50));
  });

  it('sizes a symbol whose leverage the broker refuses at the account and catalogue, told once', async () => {
    const warnings: string[] = [];
    const { broker } = await brokerOn({ ...EURUSD, leverageId: 999 }, warnings);
    expect(broker.symbolLeverage(ACCOUNT, 'EURUSD')).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('EURUSD');
    expect(warnings[0]).not.toContain(AT_500.accessToken);
    // The gate falls back to the lower of the account's 1:500 and the catalogue's 1:30.
    const units = gateUnits(broker);
    expect(Math.abs(units - (0.1 * EQUITY_CENTS * 30) / (1.08512 * 100))).toBeLessThanOrEqual(
      1_000,
    );
  });
});
