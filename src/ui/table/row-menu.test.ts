import { describe, expect, it } from 'vitest';
import type { RowMenuContribution, RowTarget } from '../slots/contribution-types.ts';
import { rowMenuSections } from './row-menu.tsx';

const item = (id: string, section: RowMenuContribution['section']): RowMenuContribution => ({
  slot: 'queue.actions',
  id,
  section,
  label: id,
});

const ROW: RowTarget = { key: 'orders', row: { paused: true } };

describe('rowMenuSections', () => {
  it('orders sections Open, Copy, Operate, Destroy whatever the contribution order, leaving out empty ones', () => {
    const sections = rowMenuSections(
      [item('purge', 'Destroy'), item('copy-name', 'Copy'), item('open', 'Open'), item('delete', 'Destroy')],
      ROW,
    );
    expect(sections.map((group) => [group.section, group.items.map((entry) => entry.id)])).toEqual([
      ['Open', ['open']],
      ['Copy', ['copy-name']],
      ['Destroy', ['purge', 'delete']],
    ]);
  });

  it('offers an item only on the rows it says it fits, and drops a section left empty', () => {
    const paused = (target: RowTarget) => (target.row as { paused?: boolean }).paused === true;
    const items = [
      item('open', 'Open'),
      { ...item('pause', 'Operate'), visible: (target: RowTarget) => !paused(target) },
      { ...item('resume', 'Operate'), visible: paused },
    ];
    const ids = (target: RowTarget) =>
      rowMenuSections(items, target).map((group) => [group.section, group.items.map((entry) => entry.id)]);
    expect(ids(ROW)).toEqual([
      ['Open', ['open']],
      ['Operate', ['resume']],
    ]);
    expect(ids({ key: 'orders', row: { paused: false } })).toEqual([
      ['Open', ['open']],
      ['Operate', ['pause']],
    ]);
    expect(rowMenuSections([items[2] ?? item('x', 'Open')], { key: 'orders', row: {} })).toEqual([]);
  });
});
