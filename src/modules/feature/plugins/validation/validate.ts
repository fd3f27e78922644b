// The one entry point of plugin validation: an uploaded archive in, either its manifest and files or every reason
// it is refused. Nothing in the archive is executed, imported or written to disk — it is read as bytes, parsed as
// JSON, JavaScript and SQL, and checked (archive.ts, manifest.ts, bundle-analysis.ts, sql-preflight.ts).
import { readPluginArchive } from './archive.ts';
import { analyzeBundle } from './bundle-analysis.ts';
import { MIGRATION_NAME } from './entry-names.ts';
import type { Finding } from './finding.ts';
import { PLUGIN_ARCHIVE_LIMITS, type PluginArchiveLimits } from './limits.ts';
import { parseManifest, type ManifestContext, type PluginManifest } from './manifest.ts';
import { preflightMigration } from './sql-preflight.ts';

export interface PluginValidationContext extends ManifestContext {
  /** The limits to hold the archive to; PLUGIN_ARCHIVE_LIMITS unless a test needs smaller ones. */
  readonly limits?: PluginArchiveLimits;
}

export type PluginValidation =
  | {
      readonly ok: true;
      readonly manifest: PluginManifest;
      /** Every file of the archive by its name (folders left out), exactly as validated. */
      readonly files: Map<string, Uint8Array>;
      readonly findings: [];
    }
  | { readonly ok: false; readonly findings: Finding[] };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function validatePluginArchive(bytes: Uint8Array, context: PluginValidationContext): PluginValidation {
  const archive = readPluginArchive(bytes, context.limits ?? PLUGIN_ARCHIVE_LIMITS);
  if (!archive.ok) return archive;
  const { files } = archive;
  const findings: Finding[] = [];
  const manifest = readManifest(files.get('plugin.json'), context, findings);
  const server = files.get('server.js');
  if (server === undefined) {
    findings.push({
      code: 'bundle-missing',
      entry: 'server.js',
      message: 'The archive has no server.js, the plugin’s server bundle.',
    });
  } else {
    findings.push(...checkBundle('server.js', server, true));
  }
  const ui = files.get('ui.js');
  if (ui !== undefined) findings.push(...checkBundle('ui.js', ui, false));
  if (manifest && (manifest.ui !== undefined) !== (ui !== undefined)) {
    findings.push({
      code: 'manifest-ui-mismatch',
      entry: 'plugin.json',
      message: manifest.ui
        ? 'plugin.json declares a UI bundle, but the archive has no ui.js.'
        : 'The archive has a ui.js that plugin.json does not declare (add "ui": "ui.js").',
    });
  }
  // Migrations are checked against the plugin's own schema, so they need a readable manifest first.
  if (manifest) {
    const migrations = [...files.keys()].filter((name) => MIGRATION_NAME.test(name)).sort();
    const sqlBytes = migrations.reduce((sum, name) => sum + (files.get(name)?.length ?? 0), 0);
    const { maxMigrationBytes } = context.limits ?? PLUGIN_ARCHIVE_LIMITS;
    if (sqlBytes > maxMigrationBytes) {
      findings.push({
        code: 'sql-too-large',
        entry: migrations[0],
        message: `The migrations hold ${sqlBytes} bytes of SQL; plugins may have at most ${maxMigrationBytes}.`,
      });
      migrations.length = 0;
    }
    for (const name of migrations) {
      const sql = decode(files.get(name) ?? new Uint8Array());
      if (sql === undefined) {
        findings.push({ code: 'sql-unparsable', entry: name, message: `${name} is not UTF-8 text.` });
      } else {
        findings.push(...preflightMigration(name, sql, manifest.id));
      }
    }
  }
  if (findings.length > 0 || !manifest) return { ok: false, findings };
  return { ok: true, manifest, files, findings: [] };
}

function readManifest(
  bytes: Uint8Array | undefined,
  context: ManifestContext,
  findings: Finding[],
): PluginManifest | undefined {
  const entry = 'plugin.json';
  if (bytes === undefined) {
    findings.push({ code: 'manifest-missing', entry, message: 'The archive has no plugin.json at its root.' });
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(decode(bytes) ?? '\0');
  } catch {
    findings.push({ code: 'manifest-not-json', entry, message: 'plugin.json is not valid UTF-8 JSON.' });
    return undefined;
  }
  const parsed = parseManifest(json, context);
  if (!parsed.ok) {
    findings.push(...parsed.findings);
    return undefined;
  }
  return parsed.manifest;
}

function checkBundle(entry: string, bytes: Uint8Array, isServer: boolean): Finding[] {
  const source = decode(bytes);
  if (source === undefined) return [{ code: 'bundle-not-utf8', entry, message: `${entry} is not UTF-8 text.` }];
  return analyzeBundle(entry, source, { requireActivate: isServer });
}
