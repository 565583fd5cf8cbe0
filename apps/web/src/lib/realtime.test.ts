import type { RealtimeInfo } from '@tradebot/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  eventually,
  sampleInfo,
  startRealtimeServer,
  type TestRealtimeServer,
} from '../test/realtime-server';
import { closeRealtimeConnection, connectRealtime } from './realtime';
import { parseRealtimeInfo } from './realtime-socket';

const token = 't'.repeat(43);

describe('parseRealtimeInfo (spec §4: info is an object or a JSON string)', () => {
  it('takes an object or the same object as JSON, and drops what does not validate', () => {
    expect(parseRealtimeInfo({ info: sampleInfo })).toEqual(sampleInfo);
    expect(parseRealtimeInfo({ info: JSON.stringify(sampleInfo) })).toEqual(sampleInfo);
    expect(parseRealtimeInfo({ info: {} })).toEqual({});
    expect(parseRealtimeInfo({ info: '{not json' })).toBeUndefined();
    expect(parseRealtimeInfo({ info: { account: { balance: 'mucho' } } })).toBeUndefined();
    expect(parseRealtimeInfo({ info: JSON.stringify({ trades: 'none' }) })).toBeUndefined();
    expect(parseRealtimeInfo(sampleInfo)).toBeUndefined();
    expect(parseRealtimeInfo(null)).toBeUndefined();
  });
});

describe('connectRealtime (spec §4 Real-time updates)', () => {
  let server: TestRealtimeServer;
  beforeEach(async () => {
    server = await startRealtimeServer([token]);
  });
  afterEach(async () => {
    closeRealtimeConnection();
    await server.close();
  });

  it('authenticates with the token and hands over each valid info, in order', async () => {
    const received: RealtimeInfo[] = [];
    connectRealtime({ token, url: server.url, onInfo: (info) => received.push(info) });
    await server.connected(token);

    server.emitTo(token, { account: { balance: 'broken' } });
    server.emitTo(token, JSON.stringify(sampleInfo));
    server.emitTo(token, 'not json');
    server.emitTo(token, { trades: [] });

    await eventually(() => received.length === 2, 'two events');
    expect(received).toEqual([sampleInfo, { trades: [] }]);
  });

  it('asks for a resync when the connection comes back, not on the first connection', async () => {
    let resyncs = 0;
    const received: RealtimeInfo[] = [];
    connectRealtime({
      token,
      url: server.url,
      transports: ['websocket'],
      onInfo: (info) => received.push(info),
      onReconnect: () => {
        resyncs += 1;
      },
    });
    const first = await server.connected(token);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(resyncs).toBe(0);

    // The connection drops (network, server restart): the client reconnects by itself.
    first.conn.close();
    await eventually(() => server.connections.get(token) === 2 && resyncs === 1, 'a resync');
    server.emitTo(token, sampleInfo);
    await eventually(() => received.length === 1, 'an event after reconnecting');
  });

  it('closeRealtimeConnection (logout) closes the socket', async () => {
    const received: RealtimeInfo[] = [];
    connectRealtime({ token, url: server.url, onInfo: (info) => received.push(info) });
    const socket = await server.connected(token);
    const disconnected = new Promise((resolve) => socket.once('disconnect', resolve));

    closeRealtimeConnection();

    expect(await disconnected).toMatch(/client namespace disconnect|transport close/);
    expect(server.sockets.size).toBe(0);
  });

  it('a connection closed before its code loaded never connects', async () => {
    const connection = connectRealtime({ token, url: server.url, onInfo: () => undefined });
    closeRealtimeConnection();
    await connection.loaded;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.connections.get(token)).toBeUndefined();
  });

  it('a second connection replaces the first', async () => {
    const first = connectRealtime({ token, url: server.url, onInfo: () => undefined });
    const socket = await server.connected(token);
    const disconnected = new Promise((resolve) => socket.once('disconnect', resolve));
    await first.loaded;
    connectRealtime({ token, url: server.url, onInfo: () => undefined });
    await disconnected;
    await eventually(() => server.connections.get(token) === 2, 'the second connection');
  });

  it('ignores a refused token (spec §4: subscription errors are ignored) and does not retry', async () => {
    const received: RealtimeInfo[] = [];
    const connection = connectRealtime({
      token: 'revoked'.repeat(8),
      url: server.url,
      onInfo: (info) => received.push(info),
    });
    await connection.loaded;
    await eventually(() => server.refusals === 1, 'the refusal');
    // socket.io-client's first retry would come within 1.5 s (1 s delay, ±50 % jitter).
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(server.refusals).toBe(1);
    expect(server.sockets.size).toBe(0);
    expect(received).toEqual([]);
  });
});
