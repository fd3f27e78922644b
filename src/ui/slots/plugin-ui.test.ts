// The console's side of a plugin UI bundle: what its `contribute` answers is kept only when the plugin's manifest
// declared it, in a page slot (never a link), with a render function; the SDK it gets is frozen.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acceptContributions, pluginSdk } from './plugin-ui.tsx';

const bundle = {
  id: 'naming-policy',
  name: 'Queue naming policy',
  version: '1.0.0',
  url: '/api/v1/plugin-ui/naming-policy/1.0.0/ui.js',
  contributions: [
    { kind: 'panel', slot: 'queue.detail.panels', id: 'naming-policy.queue-panel' },
    { kind: 'panel', slot: 'queue.link', id: 'naming-policy.link' },
    { kind: 'settings', slot: 'settings.sections', id: 'naming-policy.settings' },
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
});
