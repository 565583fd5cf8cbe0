import { describe, expect, it } from 'vitest';
import type { OrderRequest } from '../broker/broker-adapter';
import { catalogue, createRig, deliveringTwice, robotOn } from './engine-test-rig';

/**
 * An account held in another currency than USD (decision 097): the broker says what one unit of
 * the quote currency is worth in the account's currency, and the engine sizes in that currency.
 */
async function ordersSent(
  quoteToAccount: (() => number | undefined) | undefined,
  accountLeverage?: () => number | undefined,
) {
  const sent: OrderRequest[] = [];
  const rig = await createRig({
    accounts: { a: robotOn() },
    wrapBroker: (broker) => ({
      ...deliveringTwice(broker),
      onReport: (listener) => broker.onReport(listener),
      submitOrder: (order) => sent.push(order),
      ...(quoteToAccount === undefined ? {} : { quoteToAccount }),
      ...(accountLeverage === undefined ? {} : { accountLeverage }),
    }),
  });
  await rig.tick('EURUSD', 1.1, 1.1001);
  return { sent, intents: rig.store.intentList() };
}

describe('sizing in the account currency', () => {
  it('sizes on the capital in the account currency converted at the broker rate', async () => {
    // The same figures (10,000.00 free margin), read once as dollars and once as reais at 5 BRL
    // per USD: the real account is worth a fifth as many dollars, so a fifth of the units.
    const usd = await ordersSent(undefined);
    const brl = await ordersSent(() => 5);
    const usdUnits = usd.sent[0]?.units ?? 0;
    const brlUnits = brl.sent[0]?.units ?? 0;
    const { leverage, unitStep } = catalogue.require('EURUSD');
    expect(usdUnits).toBeGreaterThan(0);
    expect(Math.abs(brlUnits - usdUnits / 5)).toBeLessThanOrEqual(unitStep);
    // 10% of the free margin: R$ 1,000.00 of margin, each unit 1.1001 USD = 5.5005 BRL / leverage.
    const targetUnits = (0.1 * 1_000_000 * leverage) / (1.1001 * 5 * 100);
    expect(Math.abs(brlUnits - targetUnits)).toBeLessThanOrEqual(unitStep / 2);
    // 1:30 on EURUSD: 5,454 units, rounded to the step of 1,000; their margin in centavos.
    expect(leverage).toBe(30);
    expect(brlUnits).toBe(5000);
    expect(brl.intents[0]?.estimatedMarginCents).toBe(91_675); // 5,000 × 1.1001 × 5 / 30
  });

  it('sends nothing while the broker has no rate to the account currency', async () => {
    const { sent, intents } = await ordersSent(() => undefined);
    expect(sent).toEqual([]);
    expect(intents).toEqual([]);
  });

  it('sizes with the account leverage where it is below the catalogue, never above it', async () => {
    // EURUSD is 1:30 in the catalogue. At 1:10 the same 10% of capital in margin buys a third of
    // the units; at 1:100 (or unsaid) the catalogue's 1:30 stands.
    const at30 = (await ordersSent(() => 1)).sent[0]?.units ?? 0;
    const at10 = await ordersSent(
      () => 1,
      () => 10,
    );
    const at100 = (
      await ordersSent(
        () => 1,
        () => 100,
      )
    ).sent[0]?.units;
    const unsaid = (
      await ordersSent(
        () => 1,
        () => undefined,
      )
    ).sent[0]?.units;
    const { unitStep } = catalogue.require('EURUSD');
    expect(at30).toBeGreaterThan(0);
    expect(Math.abs((at10.sent[0]?.units ?? 0) - at30 / 3)).toBeLessThanOrEqual(unitStep);
    // 10% of 10,000.00 of free margin: about 1,000.00 of margin at 1:10.
    const margin = at10.intents[0]?.estimatedMarginCents ?? 0;
    expect(margin).toBeGreaterThan(90_000);
    expect(margin).toBeLessThanOrEqual(100_000);
    expect(at100).toBe(at30);
    expect(unsaid).toBe(at30);
  });
});
