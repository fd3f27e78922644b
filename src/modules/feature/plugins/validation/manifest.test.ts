// The manifest's rules beyond its shape: namespaces, declared permissions, contribution slots.
import { describe, expect, it } from 'vitest';
import { BASE_MANIFEST, TEST_CONTEXT } from './fixtures/plugin-builder.ts';
import { parseManifest } from './manifest.ts';

const codes = (patch: Record<string, unknown>): string[] => {
  const result = parseManifest({ ...BASE_MANIFEST, ...patch }, TEST_CONTEXT);
  return result.ok ? [] : result.findings.map((finding) => finding.code);
};

describe('parseManifest', () => {
  it('accepts the base manifest and fills absent lists', () => {
    const minimal = { ...BASE_MANIFEST, permissions: undefined, settings: undefined, limits: undefined, routes: [] };
    const result = parseManifest(JSON.parse(JSON.stringify(minimal)), TEST_CONTEXT);
    if (!result.ok) expect.fail(JSON.stringify(result.findings));
    expect(result.manifest.permissions).toEqual([]);
    expect(result.manifest.limits).toBeUndefined();
  });

  it('namespaces MCP tools with the id’s dashes as underscores', () => {
    expect(codes({ mcpTools: [{ name: 'naming_policy_scan', description: 'x', readOnly: true }] })).toEqual([]);
    expect(codes({ mcpTools: [{ name: 'naming-policy_scan', description: 'x', readOnly: true }] })).toEqual([
      'manifest-not-namespaced',
    ]);
    expect(codes({ topics: [{ id: 'naming-policy.', description: 'x' }] })).toEqual(['manifest-not-namespaced']);
  });

  it('refuses ids declared twice', () => {
    const topic = { id: 'naming-policy.t', description: 'x' };
    expect(codes({ topics: [topic, topic] })).toEqual(['manifest-duplicate-id']);
  });

  it('puts row actions in <kind>.actions slots only, screens in the navbar’s groups, and keeps the shell’s slots', () => {
    const contribution = (kind: string, slot: string) => ({ uiContributions: [{ kind, slot, id: 'naming-policy.c' }] });
    expect(codes(contribution('rowAction', 'queue.actions'))).toEqual([]);
    expect(codes(contribution('rowAction', 'queue.detail.panels'))).toEqual(['manifest-slot-kind']);
    expect(codes(contribution('panel', 'queue.actions'))).toEqual(['manifest-slot-kind']);
    expect(codes(contribution('screen', 'admin.tabs'))).toEqual(['manifest-slot-kind']);
    // A screen is listed in one of the navbar's five groups, and nothing else goes there.
    expect(codes(contribution('screen', 'nav.observe'))).toEqual([]);
    expect(codes(contribution('screen', 'nav.elsewhere'))).toEqual(['manifest-slot-kind']);
    expect(codes(contribution('panel', 'nav.observe'))).toEqual(['manifest-slot-kind']);
    expect(codes(contribution('settings', 'queue.detail.panels'))).toEqual(['manifest-settings-slot']);
  });

  it('listens only to core topics the host publishes, each once', () => {
    const listening = (...topics: string[]) => ({
      coreEvents: topics.map((topic) => ({ topic, description: 'x' })),
    });
    expect(codes(listening('queues', 'alerts'))).toEqual([]);
    expect(codes(listening('naming-policy.violations'))).toEqual(['manifest-core-event-unknown']);
    expect(codes(listening('queues', 'queues'))).toEqual(['manifest-duplicate-id']);
  });

  it('checks each setting’s default against its type', () => {
    expect(
      codes({ settings: [{ key: 'naming-policy.n', description: 'x', type: 'integer', default: 'ten' }] }),
    ).toEqual(['manifest-invalid']);
  });

  it('says where in plugin.json a shape problem is', () => {
    const result = parseManifest(
      { ...BASE_MANIFEST, routes: [{ ...BASE_MANIFEST.routes[0], path: 'no-slash' }] },
      TEST_CONTEXT,
    );
    expect(result.ok ? '' : result.findings[0]?.message).toContain('at routes.0.path');
  });
});
