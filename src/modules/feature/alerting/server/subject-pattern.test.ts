import { describe, expect, it } from 'vitest';
import { subjectPattern } from './subject-pattern.ts';

const queues = ['orders.eu', 'orders', 'audit', 'orders.us', 'order', 'ordersX', 'billing.dlq'].map((name) => ({
  name,
}));
const names = (items: readonly { name: string }[]) => items.map((item) => item.name).sort();
const byScan = (pattern: string | null) => names(queues.filter((queue) => subjectPattern(pattern).matches(queue.name)));

describe('subject patterns', () => {
  it('selects the same items from the index as testing every name', () => {
    for (const pattern of [null, 'orders', 'orders*', 'orders.*', 'o*', 'z*', 'nothing', '*dlq', 'orders.??', '*']) {
      expect(names(subjectPattern(pattern).select(queues, (queue) => queue.name)), String(pattern)).toEqual(
        byScan(pattern),
      );
    }
  });

  it('matches a name exactly, a prefix with a trailing star, and globs with ? and *', () => {
    expect(byScan('orders')).toEqual(['orders']);
    expect(byScan('orders*')).toEqual(['orders', 'orders.eu', 'orders.us', 'ordersX']);
    expect(byScan('orders.??')).toEqual(['orders.eu', 'orders.us']);
    expect(byScan('*dlq')).toEqual(['billing.dlq']);
    expect(byScan(null)).toHaveLength(queues.length);
  });

  it('takes regular-expression characters in a pattern literally', () => {
    const dotted = [{ name: 'a.b' }, { name: 'axb' }];
    expect(names(subjectPattern('a.b').select(dotted, (item) => item.name))).toEqual(['a.b']);
    expect(names(subjectPattern('a.*').select(dotted, (item) => item.name))).toEqual(['a.b']);
  });
});
