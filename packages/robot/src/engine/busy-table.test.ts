import { describe, expect, it } from 'vitest';
import { BusyTable } from './busy-table';

const isBusy = (table: BusyTable, symbol: string, slot: number) =>
  (table.column(symbol)?.[slot] ?? 0) > 0;

describe('BusyTable', () => {
  it('counts operations per instrument and account slot', () => {
    const table = new BusyTable(4);
    const a = table.allocateSlot();
    const b = table.allocateSlot();
    expect(table.column('EURUSD')).toBeUndefined();
    table.increment('EURUSD', a);
    table.increment('EURUSD', a);
    expect(isBusy(table, 'EURUSD', a)).toBe(true);
    expect(isBusy(table, 'EURUSD', b)).toBe(false);
    expect(isBusy(table, 'USDJPY', a)).toBe(false);
    table.decrement('EURUSD', a);
    expect(isBusy(table, 'EURUSD', a)).toBe(true);
    table.decrement('EURUSD', a);
    table.decrement('EURUSD', a); // never below zero
    expect(table.column('EURUSD')?.[a]).toBe(0);
  });

  it('keeps every count when it grows, and hands out a new column then', () => {
    const table = new BusyTable(2);
    const first = table.allocateSlot();
    table.increment('BTCUSD', first);
    const before = table.column('BTCUSD');
    const slots = [table.allocateSlot(), table.allocateSlot(), table.allocateSlot()];
    expect(slots).toEqual([1, 2, 3]);
    table.increment('BTCUSD', 3);
    const after = table.column('BTCUSD');
    expect(after).not.toBe(before);
    expect(after?.length).toBeGreaterThanOrEqual(4);
    expect(isBusy(table, 'BTCUSD', first)).toBe(true);
    expect(isBusy(table, 'BTCUSD', 3)).toBe(true);
  });

  it('reuses a released slot with its counts back at zero', () => {
    const table = new BusyTable(4);
    const a = table.allocateSlot();
    table.increment('EURUSD', a);
    table.releaseSlot(a);
    expect(table.allocateSlot()).toBe(a);
    expect(isBusy(table, 'EURUSD', a)).toBe(false);
  });
});
