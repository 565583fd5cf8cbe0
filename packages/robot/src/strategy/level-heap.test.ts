import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LevelHeap } from './level-heap';

/** Keys without NaN (never pushed) and without -0, which sorts as 0 but is not `toBe` 0. */
const key = fc.double({ noNaN: true }).map((x) => (x === 0 ? 0 : x));

describe('LevelHeap', () => {
  it('gives items back smallest key first, whatever the pushes, pops and rebuilds in between', () => {
    const operation = fc.oneof(
      fc.record({ push: key }),
      fc.constant({ pop: true as const }),
      fc.record({ keepAbove: key }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 200 }), (operations) => {
        const heap = new LevelHeap<number>();
        let model: number[] = [];
        for (const op of operations) {
          if ('push' in op) {
            heap.push(op.push, op.push);
            model.push(op.push);
          } else if ('pop' in op) {
            model.sort((a, b) => a - b);
            const expected = model.shift();
            const key = heap.peekKey();
            expect(key).toBe(expected ?? Infinity);
            expect(heap.pop()).toBe(expected);
          } else {
            heap.retain((item) => item > op.keepAbove);
            model = model.filter((item) => item > op.keepAbove);
          }
          expect(heap.size).toBe(model.length);
        }
      }),
    );
  });

  it('is empty after clear', () => {
    const heap = new LevelHeap<string>();
    heap.push(2, 'b');
    heap.push(1, 'a');
    heap.clear();
    expect(heap.size).toBe(0);
    expect(heap.pop()).toBeUndefined();
    expect(heap.peekKey()).toBe(Infinity);
  });
});
