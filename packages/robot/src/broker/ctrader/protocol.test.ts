import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frame, FrameReader, FrameTooLongError, MAX_FRAME_BYTES } from './framing';
import { CTraderProtocol } from './protocol';

const protocol = CTraderProtocol.load();

describe('cTrader protocol definitions', () => {
  it('reads payload types from the vendored definitions, not from a hand-written table', () => {
    // The numbers the documentation gives for these messages.
    expect(protocol.payloadType('ProtoHeartbeatEvent')).toBe(51);
    expect(protocol.payloadType('ProtoOAApplicationAuthReq')).toBe(2100);
    expect(protocol.payloadType('ProtoOANewOrderReq')).toBe(2106);
    expect(protocol.payloadType('ProtoOAExecutionEvent')).toBe(2126);
    expect(protocol.payloadType('ProtoOASpotEvent')).toBe(2131);
    expect(protocol.messageName(2142)).toBe('ProtoOAErrorRes');
  });

  it('vendors the official files unchanged, with their origin and licence', () => {
    const readme = readFileSync(new URL('./proto/README.md', import.meta.url), 'utf8');
    expect(readme).toContain('40b9b1d914210484eeb2124d85ea3c36589baf30');
    const licence = readFileSync(new URL('./proto/LICENSE', import.meta.url), 'utf8');
    expect(licence).toContain('Copyright (c) 2021 Spotware');
  });

  it('round-trips a message in its ProtoMessage envelope, int64s as numbers and enums by name', () => {
    const body = {
      ctidTraderAccountId: 4_400_101,
      symbolId: 1,
      orderType: 'MARKET',
      tradeSide: 'SELL',
      volume: 100_000,
      relativeStopLoss: 60,
      relativeTakeProfit: 12,
      clientOrderId: 'a-1',
    };
    const bytes = protocol.encode('ProtoOANewOrderReq', body, 'm7');
    const decoded = protocol.decode(bytes);
    expect(decoded).toEqual({
      payloadType: 2106,
      name: 'ProtoOANewOrderReq',
      clientMsgId: 'm7',
      body,
    });
  });

  it('refuses a message without its required fields or with a wrong enum', () => {
    expect(() => protocol.encode('ProtoOANewOrderReq', { ctidTraderAccountId: 1 })).toThrow(
      /symbolId is required/,
    );
    expect(() =>
      protocol.encode('ProtoOANewOrderReq', {
        ctidTraderAccountId: 1,
        symbolId: 1,
        orderType: 'MARKET',
        tradeSide: 'UP',
        volume: 100,
      }),
    ).toThrow(/tradeSide has no valid value/);
    expect(() => protocol.encode('ProtoOATraderReq', { ctidTraderAccountId: 1, nope: 2 })).toThrow(
      /nope/,
    );
  });
});

describe('cTrader framing', () => {
  it('prefixes the length as 4 bytes big-endian and reassembles frames cut anywhere', () => {
    const a = protocol.encode('ProtoHeartbeatEvent', {});
    const b = protocol.encode('ProtoOATraderReq', { ctidTraderAccountId: 9 }, 'x');
    const stream = Buffer.concat([frame(a), frame(b)]);
    expect(stream.readUInt32BE(0)).toBe(a.length);
    for (let cut = 0; cut <= stream.length; cut += 1) {
      const reader = new FrameReader();
      const frames = [
        ...reader.push(stream.subarray(0, cut)),
        ...reader.push(stream.subarray(cut)),
      ];
      expect(frames.map((f) => protocol.decode(f).name)).toEqual([
        'ProtoHeartbeatEvent',
        'ProtoOATraderReq',
      ]);
    }
  });

  it('refuses an oversized frame instead of buffering it', () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
    expect(() => new FrameReader().push(header)).toThrow(FrameTooLongError);
  });
});
