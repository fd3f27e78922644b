import { describe, expect, it } from 'vitest';
import { holdsTier, withRuntimePermissions, type CatalogueEntry } from './runtime-permissions.ts';

const entry = (id: string, includedIn: CatalogueEntry['includedIn'], extra: Partial<CatalogueEntry> = {}) =>
  ({ id, description: id, includedIn, module: 'm', enabled: true, ...extra }) satisfies CatalogueEntry;
const CATALOGUE: CatalogueEntry[] = [
  entry('queue:read', 'viewer'),
  entry('queue:write', 'operator'),
  entry('roles:write', 'admin'),
  entry('off:read', 'viewer', { enabled: false }),
  entry('lint:check', 'viewer', { module: 'plugins', source: 'lint' }),
  entry('lint:fix', 'operator', { module: 'plugins', source: 'lint' }),
];

describe('runtime permissions', () => {
  it('are held by whoever holds every enabled module permission of their tier, and not by a role below it', () => {
    expect(holdsTier(new Set(['queue:read']), CATALOGUE, 'viewer')).toBe(true);
    expect(holdsTier(new Set(['queue:read']), CATALOGUE, 'operator')).toBe(false);
    const viewer = withRuntimePermissions(new Set(['queue:read']), CATALOGUE);
    expect([...viewer].sort()).toEqual(['lint:check', 'queue:read']);
    const operator = withRuntimePermissions(new Set(['queue:read', 'queue:write']), CATALOGUE);
    expect([...operator].sort()).toEqual(['lint:check', 'lint:fix', 'queue:read', 'queue:write']);
  });

  it('are held alone when a custom role carries one, without lifting its holder to the tier', () => {
    const custom = withRuntimePermissions(new Set(['lint:fix']), CATALOGUE);
    expect([...custom].sort()).toEqual(['lint:fix']);
  });

  it('never count towards a tier themselves, so carrying them lifts no one', () => {
    expect(holdsTier(new Set(['lint:check', 'lint:fix']), CATALOGUE, 'viewer')).toBe(false);
  });

  it('leave a catalogue without runtime permissions as it was', () => {
    const held = new Set(['queue:read']);
    expect(withRuntimePermissions(held, CATALOGUE.slice(0, 4))).toBe(held);
  });
});
