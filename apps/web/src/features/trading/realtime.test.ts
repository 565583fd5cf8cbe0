import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeRealtimeConnection } from '../../lib/realtime';
import { installMemoryStorage } from '../../test/memory-storage';
import {
  eventually,
  sampleInfo,
  startRealtimeServer,
  type TestRealtimeServer,
} from '../../test/realtime-server';
import { startTradingRealtime } from './realtime';
import { useTradingStore } from '../../stores/trading';

const token = 'k'.repeat(43);

describe('startTradingRealtime', () => {
  let server: TestRealtimeServer;
  let restoreStorage: () => void;
  beforeEach(async () => {
    restoreStorage = installMemoryStorage();
    server = await startRealtimeServer([token]);
  });
  afterEach(async () => {
    closeRealtimeConnection();
    useTradingStore.getState().reset();
    restoreStorage();
    await server.close();
  });

  it('connects with the stored token and feeds the trading store, ending the first load', async () => {
    // What signing in stores (src/stores/auth.ts).
    localStorage.setItem('token', token);
    startTradingRealtime({ url: server.url });
    await server.connected(token);
    expect(useTradingStore.getState().isFirstLoad).toBe(true);

    server.emitTo(token, JSON.stringify(sampleInfo));

    await eventually(() => !useTradingStore.getState().isFirstLoad, 'the first data');
    expect(useTradingStore.getState()).toMatchObject({
      account: sampleInfo.account,
      trades: sampleInfo.trades,
      closed: [],
    });
  });

  it('does nothing without a stored token', () => {
    expect(startTradingRealtime({ url: server.url })).toBeUndefined();
  });
});
