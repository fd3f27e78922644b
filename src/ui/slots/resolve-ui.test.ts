import { describe, expect, it } from 'vitest';
import { defineModuleUi } from './contribution-types.ts';
import {
  activeNavHref,
  contributionsFor,
  enabledModuleUis,
  enabledTopics,
  linkHref,
  navigationGroups,
  routeOwner,
} from './resolve-ui.ts';

const Empty = () => null;
const manifestEntry = (id: string, enabled: boolean, topics: string[] = []) => ({
  id,
  title: id,
  enabled,
  enablingProperty: `flotilla.features.${id}.enabled`,
  topics,
});

const installed = [
  defineModuleUi({
    moduleId: 'audit',
    routes: ['/audit'],
    navigation: [{ group: 'activity', label: 'Audit log', href: '/audit' }],
    contributions: [{ slot: 'home.empty', id: 'audit-hint', order: 2, component: Empty }],
  }),
  defineModuleUi({
    moduleId: 'queues',
    routes: ['/queues', '/queues/dlq', '/clusters/{clusterId}/queues'],
    navigation: [{ group: 'messaging', label: 'Queues', href: '/queues' }],
    contributions: [
      { slot: 'home.empty', id: 'queues-hint', component: Empty },
      {
        slot: 'queue.link',
        id: 'queue-detail',
        href: (target) => `/clusters/${target.clusterId}/queues/${target.key}`,
      },
    ],
  }),
  defineModuleUi({ moduleId: 'clusters', routes: ['/clusters'] }),
  defineModuleUi({
    moduleId: 'settings',
    routes: ['/settings'],
    navigation: [{ group: 'configuration', label: 'Settings', href: '/settings' }],
    contributions: [{ slot: 'home.empty', id: 'settings-hint', order: 1, component: Empty }],
  }),
];

describe('resolving the installed UI against the manifest', () => {
  const manifest = [
    manifestEntry('audit', true),
    manifestEntry('queues', false, ['queues']),
    manifestEntry('settings', true, ['health']),
    manifestEntry('clusters', true),
  ];
  const enabled = enabledModuleUis(installed, manifest);

  it('drops navigation and slot contributions of disabled and unknown modules', () => {
    expect(enabled.map((ui) => ui.moduleId)).toEqual(['audit', 'clusters', 'settings']);
    expect(enabledModuleUis(installed, []).length).toBe(0);
    expect(contributionsFor(enabled, 'home.empty').map((contribution) => contribution.id)).toEqual([
      'settings-hint',
      'audit-hint',
    ]);
  });

  it('puts navigation into the fixed groups, in the fixed order, leaving out empty groups', () => {
    expect(navigationGroups(installed).map((group) => group.label)).toEqual(['Messaging', 'Configuration', 'Activity']);
    expect(navigationGroups(enabled).map((group) => group.group)).toEqual(['configuration', 'activity']);
  });

  it('keeps route ownership for disabled modules, most specific prefix first, on segment boundaries', () => {
    expect(routeOwner(installed, '/queues')).toBe('queues');
    expect(routeOwner(installed, '/queues/dlq/x')).toBe('queues');
    expect(routeOwner(installed, '/audit')).toBe('audit');
    expect(routeOwner(installed, '/auditing')).toBeUndefined();
    expect(routeOwner(installed, '/')).toBeUndefined();
    expect(routeOwner(installed, '/clusters/42/queues')).toBe('queues');
    expect(routeOwner(installed, '/clusters/42/queues/orders')).toBe('queues');
    expect(routeOwner(installed, '/clusters/42')).toBe('clusters');
    expect(routeOwner(installed, '/clusters/42/topology')).toBe('clusters');
  });

  it('marks the navigation entry of the module that owns the page', () => {
    expect(activeNavHref(installed, '/clusters/42/queues/orders')).toBe('/queues');
    expect(activeNavHref(installed, '/queues')).toBe('/queues');
    expect(activeNavHref(installed, '/audit')).toBe('/audit');
    expect(activeNavHref(installed, '/settings/x')).toBe('/settings');
    expect(activeNavHref(installed, '/')).toBeUndefined();
    expect(activeNavHref(installed, '/elsewhere')).toBeUndefined();
  });

  it('marks the entry of the kind a cluster page shows when its module has several entries', () => {
    const resources = {
      moduleId: 'resources',
      routes: ['/consumers', '/connections', '/clusters/{clusterId}/consumers', '/clusters/{clusterId}/connections'],
      navigation: [
        { group: 'resources' as const, label: 'Consumers', href: '/consumers', icon: () => null, order: 1 },
        { group: 'resources' as const, label: 'Connections', href: '/connections', icon: () => null, order: 2 },
      ],
    };
    expect(activeNavHref([resources], '/clusters/42/connections/abc')).toBe('/connections');
    expect(activeNavHref([resources], '/clusters/42/consumers')).toBe('/consumers');
  });

  it('links a row to the enabled module’s link contribution, and to nothing while that module is off', () => {
    const target = { clusterId: 'c1', key: 'orders', row: {} };
    expect(linkHref(installed, 'queue', target)).toBe('/clusters/c1/queues/orders');
    expect(linkHref(enabled, 'queue', target)).toBeUndefined();
    expect(linkHref(installed, 'address', target)).toBeUndefined();
  });

  it('collects the topics of enabled modules only', () => {
    expect(enabledTopics(manifest)).toEqual(['health']);
  });
});
