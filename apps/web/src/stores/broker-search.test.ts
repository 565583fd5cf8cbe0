import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installMemoryStorage } from '../test/memory-storage';
import { createBrokerSearchStore, firstUnansweredStep } from './broker-search';

describe('broker search answers (docs/decisions/050)', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = installMemoryStorage();
  });
  afterEach(() => {
    restore();
  });

  it('keeps the answers across step pages and reloads of the tab', () => {
    const store = createBrokerSearchStore();
    store.getState().answer({ country: 'BR', deposit: 'upTo500' });
    store.getState().toggleMarket('cripto');
    store.getState().toggleMarket('forex');
    store.getState().toggleMarket('cripto');
    const reloaded = createBrokerSearchStore().getState();
    expect(reloaded).toMatchObject({ country: 'BR', deposit: 'upTo500', markets: ['forex'] });
    expect(reloaded.regulatedOnly).toBe(true);
  });

  it('names the first step still to answer', () => {
    const store = createBrokerSearchStore();
    expect(firstUnansweredStep(store.getState())).toBe(1);
    store.getState().answer({ country: 'AR' });
    expect(firstUnansweredStep(store.getState())).toBe(2);
    store.getState().toggleMarket('stocks');
    store.getState().answer({ deposit: 'over2000' });
    expect(firstUnansweredStep(store.getState())).toBe(4);
    store.getState().answer({ experience: 'none' });
    expect(firstUnansweredStep(store.getState())).toBe(5);
    store.getState().reset();
    expect(firstUnansweredStep(store.getState())).toBe(1);
  });
});
