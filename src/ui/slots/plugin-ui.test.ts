// The console's side of a plugin UI bundle: what its `contribute` answers is kept only when the plugin's manifest
// declared it, in a page slot (never a link), with a render function; the SDK it gets is frozen.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acceptBundle, acceptContributions, pluginSdk } from './plugin-ui.tsx';

const bundle = {
  id: 'naming-policy',
  name: 'Queue naming policy',
  version: '1.0.0',
  url: '/api/v1/plugin-ui/naming-policy/1.0.0/ui.js',
  contributions: [
    { kind: 'panel', slot: 'queue.detail.panels', id: 'naming-policy.queue-panel' },
    { kind: 'panel', slot: 'queue.link', id: 'naming-policy.link' },
    { kind: 'settings', slot: 'settings.sections', id: 'naming-policy.settings' },
    { kind: 'rowAction', slot: 'queue.actions', id: 'naming-policy.check' },
    { kind: 'rowAction', slot: 'queue.actions', id: 'naming-policy.breaks' },
    { kind: 'screen', slot: 'nav.configuration', id: 'naming-policy.checker' },
    { kind: 'screen', slot: 'queue.detail.panels', id: 'naming-policy.misplaced' },
  ],
  settings: [],
};
const render = () => null;

afterEach(() => vi.restoreAllMocks());

describe('a plugin bundle’s contributions', () => {
  it('keeps a declared panel and a settings section (under Plugins), named after the plugin', () => {
    const accepted = acceptContributions(bundle, [
      { kind: 'panel', slot: 'queue.detail.panels', id: 'naming-policy.queue-panel', title: 'Naming policy', render },
      { kind: 'settings', slot: 'settings.sections', id: 'naming-policy.settings', render },
    ]);
    expect(accepted.map((contribution) => [contribution.slot, contribution.id])).toEqual([
      ['queue.detail.panels', 'plugin:naming-policy:naming-policy.queue-panel'],
      ['settings.sections', 'plugin:naming-policy:naming-policy.settings'],
    ]);
    expect(accepted[1]).toMatchObject({ heading: 'Plugins', title: 'Queue naming policy' });
  });

  it('drops, with a warning, what was not declared, a link, settings elsewhere and a missing render', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const accepted = acceptContributions(bundle, [
      { kind: 'panel', slot: 'queue.detail.panels', id: 'naming-policy.other', render },
      { kind: 'panel', slot: 'queue.link', id: 'naming-policy.link', render },
      { kind: 'settings', slot: 'settings.sections', id: 'naming-policy.settings', heading: 'System', render },
      { kind: 'panel', slot: 'queue.detail.panels', id: 'naming-policy.queue-panel', render: 'not a function' },
      null,
    ]);
    expect(accepted).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(5);
    expect(warn.mock.calls.map(([message]) => String(message)).join('\n')).toMatch(/links/);
  });

  it('offers a declared row action under Operate, with the row’s key and a copy of the row, and says what it throws', async () => {
    const seen: unknown[] = [];
    const row = { queueName: 'Orders', messageCount: 3 };
    const accepted = acceptContributions(bundle, [
      {
        kind: 'rowAction',
        slot: 'queue.actions',
        id: 'naming-policy.check',
        label: 'Check name',
        run: (target: { key: string; row: { messageCount: number } }) => {
          seen.push(target);
          target.row.messageCount = 0;
          return `Checked ${target.key}`;
        },
      },
      {
        kind: 'rowAction',
        slot: 'queue.actions',
        id: 'naming-policy.breaks',
        label: 'Break',
        section: 'Copy',
        run: () => Promise.reject(new Error('on purpose')),
      },
    ]);
    expect(accepted.map((contribution) => [contribution.slot, contribution.id])).toEqual([
      ['queue.actions', 'plugin:naming-policy:naming-policy.check'],
      ['queue.actions', 'plugin:naming-policy:naming-policy.breaks'],
    ]);
    const [check, breaks] = accepted as { section: string; label: string; run: (target: unknown) => unknown }[];
    expect(check).toMatchObject({ section: 'Operate', label: 'Check name (Queue naming policy)' });
    expect(await check?.run({ clusterId: 'c1', key: 'Orders', row })).toBe('Checked Orders');
    expect(seen).toEqual([{ clusterId: 'c1', key: 'Orders', row: { queueName: 'Orders', messageCount: 0 } }]);
    // The table's own row is untouched.
    expect(row.messageCount).toBe(3);
    expect(await breaks?.run({ key: 'Orders', row })).toBe('Plugin Queue naming policy failed: on purpose');
  });

  it('refuses a row action under Destroy, without a label or run, or of a kind that does not belong there', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const run = () => 'done';
    expect(
      acceptContributions(bundle, [
        {
          kind: 'rowAction',
          slot: 'queue.actions',
          id: 'naming-policy.check',
          label: 'Purge',
          section: 'Destroy',
          run,
        },
        { kind: 'rowAction', slot: 'queue.actions', id: 'naming-policy.check', run },
        { kind: 'rowAction', slot: 'queue.actions', id: 'naming-policy.check', label: 'No run' },
        { kind: 'panel', slot: 'queue.actions', id: 'naming-policy.check', label: 'A panel', run },
      ]),
    ).toEqual([]);
  });

  it('shows nothing of a bundle whose contribute() does not answer a list', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(acceptContributions(bundle, { not: 'a list' })).toEqual([]);
  });
});

describe('the plugin SDK', () => {
  it('is frozen, its ui too, and its fetchJson reaches only the plugin’s gateway', async () => {
    const sdk = pluginSdk('naming-policy');
    expect(Object.isFrozen(sdk)).toBe(true);
    expect(Object.isFrozen(sdk.ui)).toBe(true);
    expect(sdk.version).toBe(1);
    const fetched: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      fetched.push(input as string);
      return Promise.resolve(new Response(JSON.stringify({ ok: true }), { status: 200 }));
    });
    expect(await sdk.fetchJson('/check?name=x')).toEqual({ ok: true });
    await sdk.fetchJson('/violations', { clusterId: 'c 1' });
    expect(fetched).toEqual([
      '/api/v1/p/naming-policy/check?name=x',
      '/api/v1/clusters/c%201/p/naming-policy/violations',
    ]);
  });

  it('makes a declared screen a page of its own and an entry of its navbar group, apart from the slot contributions', () => {
    const ui = acceptBundle(bundle, [
      { kind: 'screen', slot: 'nav.configuration', id: 'naming-policy.checker', title: 'Naming policy', render },
      { kind: 'panel', slot: 'queue.detail.panels', id: 'naming-policy.queue-panel', render },
    ]);
    expect(ui.moduleId).toBe('plugin:naming-policy');
    expect(ui.screens?.map((screen) => [screen.name, screen.title])).toEqual([['checker', 'Naming policy']]);
    expect(ui.navigation).toEqual([
      { group: 'configuration', label: 'Naming policy', href: '/plugin/naming-policy/checker', order: 1000 },
    ]);
    expect(ui.contributions?.map((contribution) => contribution.slot)).toEqual(['queue.detail.panels']);
  });

  it('drops a screen outside nav.<group>, an undeclared one and one without render, and a panel in a nav group', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const ui = acceptBundle(bundle, [
      { kind: 'screen', slot: 'queue.detail.panels', id: 'naming-policy.misplaced', render },
      { kind: 'screen', slot: 'nav.observe', id: 'naming-policy.checker', render },
      { kind: 'screen', slot: 'nav.configuration', id: 'naming-policy.checker' },
      { kind: 'panel', slot: 'nav.configuration', id: 'naming-policy.checker', render },
    ]);
    expect(ui.screens).toEqual([]);
    expect(ui.navigation).toEqual([]);
    expect(ui.contributions).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(4);
  });
});
