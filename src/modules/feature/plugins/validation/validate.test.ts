// The entry point over the whole corpus: the base plugin passes, and each hostile case — one change to it — is
// refused with its code. Since the base passes, every case fails for its own change, not for something shared.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_CASES, hostileArchive } from './fixtures/hostile-corpus.ts';
import { BASE_FILES, BASE_MANIFEST, pluginArchive, TEST_CONTEXT } from './fixtures/plugin-builder.ts';
import { validatePluginArchive } from './validate.ts';

const decoder = new TextDecoder();

describe('validatePluginArchive', () => {
  it('accepts the base plugin and returns its manifest and every file', () => {
    const result = validatePluginArchive(pluginArchive(), TEST_CONTEXT);
    if (!result.ok) expect.fail(JSON.stringify(result.findings, null, 2));
    expect(result.findings).toEqual([]);
    expect(result.manifest).toMatchObject({ id: 'naming-policy', version: '1.2.0', activation: 'instant' });
    expect(result.manifest.permissions).toEqual(BASE_MANIFEST.permissions);
    expect([...result.files.keys()].sort()).toEqual(Object.keys(BASE_FILES).sort());
    for (const [name, content] of Object.entries(BASE_FILES))
      expect(decoder.decode(result.files.get(name))).toBe(content);
  });

  it('accepts the base plugin stored, with folder entries and with data descriptors', () => {
    const variations = [
      { method: 'store' as const },
      { extraRecords: [{ name: 'migrations/', method: 'store' as const, unixMode: 0o040755 }, { name: 'assets/' }] },
      { records: { 'server.js': { descriptor: 'signed' as const }, 'ui.js': { descriptor: 'unsigned' as const } } },
    ];
    for (const variation of variations) {
      const result = validatePluginArchive(pluginArchive(variation), TEST_CONTEXT);
      expect(result.ok ? [] : result.findings).toEqual([]);
    }
  });

  it('accepts a plugin with only the required entries', () => {
    const manifest = { ...BASE_MANIFEST, ui: undefined, uiContributions: undefined, limits: undefined };
    const result = validatePluginArchive(
      pluginArchive({
        files: { 'plugin.json': JSON.stringify(manifest), 'ui.js': null, 'migrations/001-violations.sql': null },
        method: 'store',
      }).slice(),
      TEST_CONTEXT,
    );
    expect(result.ok ? [] : result.findings).toEqual([]);
  });

  it('has a corpus of at least 35 hostile cases spread over the four areas', () => {
    expect(HOSTILE_CASES.length).toBeGreaterThanOrEqual(35);
    for (const area of ['archive', 'manifest', 'bundle', 'sql']) {
      expect(HOSTILE_CASES.filter((hostile) => hostile.area === area).length).toBeGreaterThanOrEqual(8);
    }
  });

  it.each(HOSTILE_CASES)('refuses $area: $name ($code)', (hostile) => {
    const result = validatePluginArchive(hostileArchive(hostile), TEST_CONTEXT);
    expect(result.ok).toBe(false);
    const codes = result.findings.map((finding) => finding.code);
    expect(codes).toContain(hostile.code);
    for (const finding of result.findings) {
      expect(finding.code).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(finding.message.length).toBeGreaterThan(10);
    }
  });
});

describe('validation never runs archive content', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'plugin-validation-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('leaves no marker from a server.js, ui.js or migration that would write one if run', () => {
    const marker = path.join(folder, 'ran');
    const writer = `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\n`;
    const sneaky = `process.getBuiltinModule('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`;
    const result = validatePluginArchive(
      pluginArchive({
        files: {
          'server.js': `${writer}export async function activate() {}\n`,
          'ui.js': sneaky,
          'migrations/002-write.sql': `COPY (SELECT 1) TO '${marker}';`,
        },
      }),
      TEST_CONTEXT,
    );
    expect(existsSync(marker)).toBe(false);
    expect(result.ok ? [] : result.findings.map((finding) => finding.code)).toEqual(
      expect.arrayContaining(['bundle-import', 'bundle-denied-global', 'sql-statement-not-allowed']),
    );
  });

  it('passes, in time, a server.js whose top level would never return if it were run', () => {
    const started = Date.now();
    const result = validatePluginArchive(
      pluginArchive({ files: { 'server.js': 'for (;;) {}\nexport async function activate(api) { return api; }\n' } }),
      TEST_CONTEXT,
    );
    expect(result.ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
