// Packs a plugin's source folder (examples/plugins/naming-policy) into the archive Admin → Plugins takes: what
// `npm run plugin:pack` runs, and what tests build the sample archive with. It refuses a folder holding anything the archive format does not allow,
// naming every offender, so an author learns before uploading; the upload's own validation still checks everything.
// The zip is written here with node:zlib: entries in a fixed order with a fixed timestamp, so the same folder always
// gives the same bytes (and the same sha256), and tests can build the sample archive in memory (packPluginFolder).
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

/** The archive format's limits (issue 33). */
const MAX_ARCHIVE_BYTES = 5 * 1024 * 1024;
const MAX_ENTRIES = 200;

/** Files allowed at the archive's root, and the two folders allowed one level down (no deeper). */
const ROOT_FILES = new Set(['plugin.json', 'server.js', 'ui.js', 'README.md', 'LICENSE']);
const FOLDER_FILES: Readonly<Record<string, RegExp>> = {
  migrations: /^\d{3}-[a-z0-9][a-z0-9-]*\.sql$/,
  assets: /^[A-Za-z0-9][A-Za-z0-9._-]*\.(png|svg|css)$/,
};
// As the upload's manifest check has them (3–32 characters; a semantic version), so the archive's name is sound.
const PLUGIN_ID = /^[a-z][a-z0-9-]{2,31}$/;
const VERSION = /^\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]+)?$/;

/** The manifest's fields the packer reads; the rest is the upload validation's business. */
interface PackedManifest {
  readonly id: string;
  readonly version: string;
  readonly server: string;
  readonly ui?: string;
  readonly [field: string]: unknown;
}

export interface PackedPlugin {
  readonly bytes: Uint8Array;
  readonly manifest: PackedManifest;
  /** The archive's entry paths, in the archive's order. */
  readonly entries: readonly string[];
}

/** Why a folder cannot be packed, with every problem found (not only the first). */
export class PluginPackError extends Error {
  constructor(
    readonly folder: string,
    readonly problems: readonly string[],
  ) {
    super(`Cannot pack ${folder}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'PluginPackError';
  }
}

/** The folder's archive paths (`server.js`, `migrations/001-x.sql`), refusing whatever the format does not allow. */
async function collectEntries(folder: string): Promise<string[]> {
  const entries: string[] = [];
  const offenders: string[] = [];
  for (const item of await readdir(folder, { withFileTypes: true })) {
    const name = item.name;
    if (item.isFile() && ROOT_FILES.has(name)) {
      entries.push(name);
    } else if (item.isDirectory() && name in FOLDER_FILES) {
      const allowed = FOLDER_FILES[name];
      for (const inner of await readdir(path.join(folder, name), { withFileTypes: true })) {
        const entry = `${name}/${inner.name}`;
        if (!inner.isFile()) offenders.push(`${entry} (${inner.isDirectory() ? 'a nested folder' : 'not a file'})`);
        else if (!allowed?.test(inner.name)) offenders.push(`${entry} (not a ${describeFolder(name)})`);
        else entries.push(entry);
      }
    } else if (item.isDirectory()) {
      offenders.push(`${name}/ (a folder other than migrations/ and assets/)`);
    } else if (!item.isFile()) {
      offenders.push(`${name} (a symbolic link or special file)`);
    } else {
      offenders.push(`${name} (not an archive file: only ${[...ROOT_FILES].join(', ')} at the root)`);
    }
  }
  if (offenders.length > 0) {
    throw new PluginPackError(
      folder,
      offenders.sort().map((offender) => `not allowed in a plugin: ${offender}`),
    );
  }
  return entries;
}

function describeFolder(name: string): string {
  return name === 'migrations' ? 'migration named NNN-name.sql' : 'png, svg or css asset';
}

/** The manifest's id, version and bundle names, checked as far as packing needs. */
function readManifest(text: string, entries: readonly string[], folder: string): PackedManifest {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new PluginPackError(folder, [`plugin.json is not JSON: ${(error as Error).message}`]);
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw new PluginPackError(folder, ['plugin.json is not a JSON object']);
  }
  const fields = manifest as Record<string, unknown>;
  const problems: string[] = [];
  const { id, version, server, ui } = fields;
  if (typeof id !== 'string' || !PLUGIN_ID.test(id)) problems.push(`plugin.json: id must match ${PLUGIN_ID.source}`);
  if (typeof version !== 'string' || !VERSION.test(version)) problems.push('plugin.json: version must be x.y.z');
  if (server !== 'server.js') problems.push('plugin.json: server must be "server.js"');
  else if (!entries.includes('server.js')) problems.push('server.js is missing');
  if (ui !== undefined && ui !== 'ui.js') problems.push('plugin.json: ui, when given, must be "ui.js"');
  else if (ui === 'ui.js' && !entries.includes('ui.js')) problems.push('ui.js is named in plugin.json but missing');
  else if (ui === undefined && entries.includes('ui.js')) problems.push('ui.js is present but plugin.json names no ui');
  if (problems.length > 0) throw new PluginPackError(folder, problems);
  return fields as PackedManifest;
}

/** plugin.json first, then the rest by path: readers that stream an archive meet the manifest first. */
function archiveOrder(a: string, b: string): number {
  if (a === 'plugin.json' || b === 'plugin.json') return a === 'plugin.json' ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Packs a plugin's source folder into its archive, in memory. The same folder always gives the same bytes. */
export async function packPluginFolder(folder: string): Promise<PackedPlugin> {
  const stat = await lstat(folder).catch(() => undefined);
  if (!stat?.isDirectory()) throw new PluginPackError(folder, ['not a folder']);
  const entries = (await collectEntries(folder)).sort(archiveOrder);
  if (!entries.includes('plugin.json')) throw new PluginPackError(folder, ['plugin.json is missing']);
  if (entries.length > MAX_ENTRIES) {
    throw new PluginPackError(folder, [`${entries.length} entries, over the limit of ${MAX_ENTRIES}`]);
  }
  const files = await Promise.all(
    entries.map(async (name) => ({ name, data: await readFile(path.join(folder, ...name.split('/'))) })),
  );
  const manifest = readManifest(files[0]?.data.toString('utf8') ?? '', entries, folder);
  const bytes = writeZip(files);
  if (bytes.length > MAX_ARCHIVE_BYTES) {
    throw new PluginPackError(folder, [
      `the archive would be ${bytes.length} bytes, over ${MAX_ARCHIVE_BYTES} (5 MiB)`,
    ]);
  }
  return { bytes, manifest, entries };
}

// The zip itself (APPNOTE 6.3): a local header and the data per entry, then the central directory and its end record.
// Every entry carries 1980-01-01 00:00 (DOS time 0, date 0x21), Unix mode 0644 and UTF-8 names; each is deflated
// unless deflating would not make it smaller.
const DOS_TIME = 0;
const DOS_DATE = (1 << 5) | 1;
const UTF8_NAMES = 1 << 11;
const MADE_BY_UNIX = (3 << 8) | 20;
const REGULAR_FILE_0644 = (0o100644 << 16) >>> 0;

function writeZip(files: readonly { name: string; data: Buffer }[]): Uint8Array {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of files) {
    const nameBytes = Buffer.from(name, 'utf8');
    const deflated = deflateRawSync(data, { level: 9 });
    const method = deflated.length < data.length ? 8 : 0;
    const body = method === 8 ? deflated : data;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(MADE_BY_UNIX, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt16LE(method, 10);
    header.writeUInt16LE(DOS_TIME, 12);
    header.writeUInt16LE(DOS_DATE, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(body.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(nameBytes.length, 28);
    // Extra field, comment, disk number and internal attributes stay 0.
    header.writeUInt32LE(REGULAR_FILE_0644, 38);
    header.writeUInt32LE(offset, 42);
    chunks.push(local, nameBytes, body);
    central.push(header, nameBytes);
    offset += local.length + nameBytes.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...chunks, directory, end]));
}
