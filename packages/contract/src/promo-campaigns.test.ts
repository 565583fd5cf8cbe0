import { describe, expect, it } from 'vitest';
import { isRobotBitcoinSegment, promoBrokerId, promoBrokerSegment } from './promo-campaigns';

describe('robotbitcoin landing segments', () => {
  it.each([
    ['robotbitcoin-xm', 'xm'],
    ['ROBOTBITCOIN-Interactive-Brokers', 'interactive-brokers'],
    ['robotbitcoin-estafa-garantizada-1000-por-ciento', 'estafa-garantizada-1000-por-ciento'],
    ['robotbitcoin-', null],
    ['mesgratis', null],
    [undefined, null],
  ])('%s asks for the directory id %s', (segment, expected) => {
    expect(promoBrokerId(segment)).toBe(expected);
  });

  it('spells a directory id back as its segment', () => {
    expect(promoBrokerSegment('xm')).toBe('robotbitcoin-xm');
    expect(promoBrokerId(promoBrokerSegment('xm'))).toBe('xm');
  });

  it('recognises the landing with or without a broker', () => {
    expect(isRobotBitcoinSegment('robotbitcoin-')).toBe(true);
    expect(isRobotBitcoinSegment('robot-bitcoin')).toBe(false);
  });
});
