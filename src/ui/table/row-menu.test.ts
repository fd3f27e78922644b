import { describe, expect, it } from 'vitest';
import type { RowMenuContribution } from '../slots/contribution-types.ts';
import { rowMenuSections } from './row-menu.tsx';

const item = (id: string, section: RowMenuContribution['section']): RowMenuContribution => ({
  slot: 'queue.actions',
  id,
  section,
  label: id,
});

describe('rowMenuSections', () => {
  it('orders sections Open, Copy, Operate, Destroy whatever the contribution order, leaving out empty ones', () => {
    const sections = rowMenuSections([
      item('purge', 'Destroy'),
      item('copy-name', 'Copy'),
      item('open', 'Open'),
      item('delete', 'Destroy'),
    ]);
    expect(sections.map((group) => [group.section, group.items.map((entry) => entry.id)])).toEqual([
      ['Open', ['open']],
      ['Copy', ['copy-name']],
      ['Destroy', ['purge', 'delete']],
    ]);
  });
});
