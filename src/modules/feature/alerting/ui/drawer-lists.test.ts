// The alert drawer's lists: the delivery log polls while a delivery is pending, both search and sort as shown.
import { describe, expect, it } from 'vitest';
import { deliveryRefetchInterval, deliverySearch, transitionSearch } from './drawer-lists.ts';

const delivery = {
  channelId: 'c1',
  event: 'firing',
  status: 'failed',
  response: 'HTTP 500',
  at: '2026-11-28T00:00:00Z',
};

describe('alert drawer lists', () => {
  it('rereads the delivery log while a delivery is pending, and follows the stream poll when it is down', () => {
    expect(deliveryRefetchInterval(false, [{ status: 'pending' }, { status: 'delivered' }])).toBe(5_000);
    expect(deliveryRefetchInterval(false, [{ status: 'delivered' }])).toBe(false);
    expect(deliveryRefetchInterval(false, undefined)).toBe(false);
    expect(deliveryRefetchInterval(5_000, [])).toBe(5_000);
  });

  it('searches and sorts deliveries by the channel name shown', () => {
    const search = deliverySearch((id) => `channel ${id}`);
    expect(search.text(delivery)).toBe('channel c1 firing failed HTTP 500');
    expect(search.text({ ...delivery, response: null })).toBe('channel c1 firing failed ');
    expect(search.sortValue(delivery, 'channel')).toBe('channel c1');
    expect(search.sortValue(delivery, 'status')).toBe('failed');
    expect(search.sortValue(delivery, 'at')).toBe(delivery.at);
  });

  it('sorts transitions by sequence as numbers', () => {
    const seqOf = (seq: string) => transitionSearch.sortValue({ seq, transition: 'x', state: 'y', actor: 'z' }, 'seq');
    expect(seqOf('9') < seqOf('10')).toBe(true);
    expect(transitionSearch.text({ seq: '1', transition: 'firing', state: 'firing', actor: 'rule' })).toBe(
      'firing firing rule',
    );
  });
});
