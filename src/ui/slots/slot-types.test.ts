// Type test: contributions are checked against the closed slot list at build time (tsc runs over tests too).
// Each `@ts-expect-error` line must stay an error, or `npm run typecheck` fails.
import { describe, expect, it } from 'vitest';
import { defineModuleUi, type Contribution, type PluginContribution } from './contribution-types.ts';
import { PAGE_SLOTS } from './slot-ids.ts';

const Empty = () => null;
const useNothing = () => ({ result: { kind: 'absent' as const }, pending: false });

const valid: Contribution[] = [
  { slot: 'home.empty', id: 'a', component: Empty },
  { slot: 'queue.actions', id: 'b', section: 'Operate', label: 'Purge', run: () => undefined },
  { slot: 'queue.link', id: 'c', href: ({ key }) => `/queues/${key}` },
  { slot: 'admin.tabs', id: 'd', group: 'Support', label: 'Jobs', href: '/admin/jobs' },
  { slot: 'palette.search', id: 'e', title: 'Things', useSearch: useNothing },
];

const misspelt: Contribution[] = [
  // @ts-expect-error 'home.emtpy' is not a slot
  { slot: 'home.emtpy', id: 'x', component: Empty },
  // @ts-expect-error no row menu for kind 'topic'
  { slot: 'topic.actions', id: 'y', section: 'Open', label: 'Open' },
  // @ts-expect-error 'Delete' is not a row-menu section (Destroy is)
  { slot: 'queue.actions', id: 'z', section: 'Delete', label: 'Delete' },
  // @ts-expect-error 'Security' is not an admin group
  { slot: 'admin.tabs', id: 'w', group: 'Security', label: 'Users', href: '/admin/users' },
  // @ts-expect-error a palette section needs its heading
  { slot: 'palette.search', id: 'v', useSearch: useNothing },
];

const pluginLink: PluginContribution[] = [
  // @ts-expect-error plugins cannot contribute to link slots
  { slot: 'queue.link', id: 'p', href: () => '/' },
  // @ts-expect-error a plugin's settings section sits under Plugins
  { slot: 'settings.sections', id: 'q', heading: 'System', title: 'Mine', component: Empty },
];

// @ts-expect-error 'activities' is not one of the five navigation groups
defineModuleUi({ moduleId: 'm', navigation: [{ group: 'activities', label: 'X', href: '/x' }] });

describe('slot typing', () => {
  it('accepts contributions to the spec slots', () => {
    expect(valid.map((contribution) => contribution.slot)).toEqual([
      'home.empty',
      'queue.actions',
      'queue.link',
      'admin.tabs',
      'palette.search',
    ]);
    expect(PAGE_SLOTS).toHaveLength(15);
    expect(misspelt).toHaveLength(5);
    expect(pluginLink).toHaveLength(2);
  });
});
