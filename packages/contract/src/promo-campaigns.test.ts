import { describe, expect, it } from 'vitest';
import { brokerNameFromSegment, isRobotBitcoinSegment } from './promo-campaigns';

describe('brokerNameFromSegment', () => {
  it.each([
    ['robotbitcoin-xm', 'Xm'],
    ['robotbitcoin-interactive-brokers', 'Interactive Brokers'],
    ['ROBOTBITCOIN-ic_markets', 'Ic Markets'],
    ['robotbitcoin-%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'Scriptalert1script'],
    ['robotbitcoin-bolsa.méxico', 'Bolsa México'],
    ['robotbitcoin-%E0%A4%A', 'E0a4a'],
    ['robotbitcoin-', null],
    ['robotbitcoin----', null],
    ['mesgratis', null],
    [undefined, null],
  ])('%s -> %s', (segment, expected) => {
    expect(brokerNameFromSegment(segment)).toBe(expected);
  });

  it('caps the name at 40 characters', () => {
    expect(brokerNameFromSegment(`robotbitcoin-${'a'.repeat(80)}`)?.length).toBe(40);
  });

  it('recognises the landing with or without a broker', () => {
    expect(isRobotBitcoinSegment('robotbitcoin-')).toBe(true);
    expect(isRobotBitcoinSegment('robot-bitcoin')).toBe(false);
  });
});
