import { describe, expect, it } from 'vitest';
import { tradeRow } from '../../test/trade-row';
import {
  flattenPages,
  newlyClosed,
  periodStart,
  prependClosed,
  shouldLoadMore,
  type HistoryPage,
} from './history-pages';

const now = Date.parse('2026-11-22T12:00:00.000Z');
const closedAt = (id: string, iso: string) => tradeRow({ id, CloseTime: iso });

describe('history periods (spec §2, §9)', () => {
  it('start a day, 3 days, a week and 30 days back; all has no start', () => {
    expect(periodStart('day', now)).toBe(Date.parse('2026-11-21T12:00:00.000Z'));
    expect(periodStart('3days', now)).toBe(Date.parse('2026-11-19T12:00:00.000Z'));
    expect(periodStart('week', now)).toBe(Date.parse('2026-11-15T12:00:00.000Z'));
    expect(periodStart('month', now)).toBe(Date.parse('2026-10-23T12:00:00.000Z'));
    expect(periodStart('all', now)).toBeNull();
  });
});

describe('history pages', () => {
  const first: HistoryPage = {
    rows: [closedAt('c', '2026-11-22T11:00:00Z'), closedAt('b', '2026-11-22T10:00:00Z')],
    total: 3,
    nextCursor: 'b',
  };
  const second: HistoryPage = {
    rows: [closedAt('b', '2026-11-22T10:00:00Z'), closedAt('a', '2026-11-20T10:00:00Z')],
    total: 3,
    nextCursor: null,
  };

  it('flatten in order, each operation once', () => {
    expect(flattenPages([first, second]).map((row) => row.id)).toEqual(['c', 'b', 'a']);
    expect(flattenPages([])).toEqual([]);
  });

  it('take from a real-time closed list only what is new, closed and in the period', () => {
    const incoming = [
      closedAt('c', '2026-11-22T11:00:00Z'),
      closedAt('e', '2026-11-22T11:30:00Z'),
      closedAt('d', '2026-11-22T11:45:00Z'),
      closedAt('old', '2026-11-01T11:00:00Z'),
      tradeRow({ id: 'open', status: 'open', CloseTime: null }),
    ];
    expect(newlyClosed([first], incoming, 'day', now).map((row) => row.id)).toEqual(['d', 'e']);
    expect(newlyClosed([first], incoming, 'all', now).map((row) => row.id)).toEqual([
      'd',
      'e',
      'old',
    ]);
  });

  it('put new rows on top of the first page and count them in every page total', () => {
    const data = { pages: [first, second], pageParams: [undefined, 'b'] };
    const merged = prependClosed(data, [closedAt('d', '2026-11-22T11:45:00Z')]);
    expect(flattenPages(merged.pages).map((row) => row.id)).toEqual(['d', 'c', 'b', 'a']);
    expect(merged.pages.map((page) => page.total)).toEqual([4, 4]);
    expect(merged.pageParams).toEqual([undefined, 'b']);
    expect(prependClosed(data, [])).toBe(data);
  });

  it('ask for the next page near the end, once, and only when there is one', () => {
    expect(shouldLoadMore(85, 100, true, false)).toBe(true);
    expect(shouldLoadMore(50, 100, true, false)).toBe(false);
    expect(shouldLoadMore(99, 100, false, false)).toBe(false);
    expect(shouldLoadMore(99, 100, true, true)).toBe(false);
  });
});
