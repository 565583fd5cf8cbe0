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
import { queryClient } from '../../lib/query-client';
import { liveTradingKey } from '../../lib/live-trading';

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
    queryClient.clear();
    restoreStorage();
    await server.close();
  });

  it('connects with the stored token and feeds the live trading data, ending the first load', async () => {
    // What signing in stores (src/stores/auth.ts).
    localStorage.setItem('token', token);
    startTradingRealtime({ url: server.url });
    await server.connected(token);
    expect(queryClient.getQueryData(liveTradingKey)).toBeUndefined();

    server.emitTo(token, JSON.stringify(sampleInfo));

    await eventually(
      () => queryClient.getQueryData(liveTradingKey) !== undefined,
      'the first data',
    );
    expect(queryClient.getQueryData(liveTradingKey)).toMatchObject({
      account: sampleInfo.account,
      trades: sampleInfo.trades,
      closed: [],
    });
  });

  it('does nothing without a stored token', () => {
    expect(startTradingRealtime({ url: server.url })).toBeUndefined();
  });
});
