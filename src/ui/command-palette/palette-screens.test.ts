import { describe, expect, it } from 'vitest';
import { defineModuleUi } from '../slots/contribution-types.ts';
import { matchScreens, paletteScreens } from './palette-screens.ts';

const enabled = [
  defineModuleUi({
    moduleId: 'audit',
    navigation: [{ group: 'activity', label: 'Audit log', href: '/audit' }],
  }),
  defineModuleUi({
    moduleId: 'queues',
    navigation: [{ group: 'messaging', label: 'Queues', href: '/queues', order: 10 }],
  }),
  defineModuleUi({
    moduleId: 'jobs',
    contributions: [{ slot: 'admin.tabs', id: 'jobs', group: 'Support', label: 'System jobs', href: '/admin/jobs' }],
  }),
  defineModuleUi({
    moduleId: 'security',
    contributions: [{ slot: 'admin.tabs', id: 'users', group: 'Access', label: 'Users', href: '/admin/users' }],
  }),
];

const summary = (screens: ReturnType<typeof paletteScreens>) =>
  screens.map((screen) => `${screen.where} / ${screen.label} → ${screen.href}`);

describe('paletteScreens', () => {
  it('lists what the shell shows, in its order: Home, the navbar groups, Admin, the admin tabs by group', () => {
    expect(summary(paletteScreens(enabled))).toEqual([
      'Console / Home → /',
      'Messaging / Queues → /queues',
      'Activity / Audit log → /audit',
      'Console / Admin → /admin',
      'Admin · Access / Users → /admin/users',
      'Admin · Support / System jobs → /admin/jobs',
    ]);
  });

  it('offers nothing of a module the manifest leaves out', () => {
    expect(summary(paletteScreens([]))).toEqual(['Console / Home → /', 'Console / Admin → /admin']);
  });
});

describe('matchScreens', () => {
  const screens = paletteScreens(enabled);
  const labels = (query: string) => matchScreens(screens, query).map((screen) => screen.label);

  it('lists every screen for an empty query', () => {
    expect(labels('  ')).toHaveLength(screens.length);
  });

  it('matches every word in the name or the group, in any case, names starting with the text first', () => {
    expect(labels('AUD')).toEqual(['Audit log']);
    expect(labels('admin')).toEqual(['Admin', 'Users', 'System jobs']);
    expect(labels('support jobs')).toEqual(['System jobs']);
    expect(labels('a')).toEqual(['Audit log', 'Admin', 'Queues', 'Users', 'System jobs']);
  });

  it('matches nothing it should not', () => {
    expect(labels('payments')).toEqual([]);
  });
});
