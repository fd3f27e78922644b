// The packer (pack-folder.ts, behind `npm run plugin:pack`): the sample plugin packs into exactly its allowed files, the same
// bytes every time, as a zip any reader opens; a folder holding anything else is refused, naming each offender.
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { packPluginFolder, PluginPackError } from './pack-folder.ts';

const SAMPLE = path.resolve(import.meta.dirname, '../../../../../examples/plugins/naming-policy');

/** The entries of a zip, read from its central directory, with their inflated contents. */
function readZip(bytes: Uint8Array): Map<string, Buffer> {
  const zip = Buffer.from(bytes);
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let index = 0; index < count; index++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const body = zip.subarray(start, start + size);
    entries.set(name, method === 8 ? inflateRawSync(body) : body);
    at += 46 + nameLength;
  }
  return entries;
}

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A copy of the sample plugin in a temporary folder, to spoil. */
async function copyOfSample(): Promise<string> {
  const folder = path.join(await mkdtemp(path.join(tmpdir(), 'plugin-pack-')), 'naming-policy');
  scratch.push(path.dirname(folder));
  await cp(SAMPLE, folder, { recursive: true });
  return folder;
}

async function refusal(folder: string): Promise<PluginPackError> {
  const error: unknown = await packPluginFolder(folder).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PluginPackError);
  return error as PluginPackError;
}

describe('packPluginFolder', () => {
  it('packs the sample plugin into exactly its files, manifest first', async () => {
    const { bytes, manifest, entries } = await packPluginFolder(SAMPLE);
    expect(manifest).toMatchObject({ id: 'naming-policy', version: '1.0.0', server: 'server.js', ui: 'ui.js' });
    const expected = ['plugin.json', 'README.md', 'migrations/001-violations.sql', 'server.js', 'ui.js'];
    expect(entries).toEqual(expected);
    const zip = readZip(bytes);
    expect([...zip.keys()]).toEqual(expected);
    for (const [name, data] of zip) {
      expect(data.equals(await readFile(path.join(SAMPLE, name))), name).toBe(true);
    }
  });

  it('gives the same bytes every time', async () => {
    const first = await packPluginFolder(SAMPLE);
    const again = await packPluginFolder(await copyOfSample());
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
  });

  it('refuses a folder with stray files, nested folders and links, naming every offender', async () => {
    const folder = await copyOfSample();
    await writeFile(path.join(folder, 'notes.txt'), 'scratch');
    await mkdir(path.join(folder, 'node_modules/left-pad'), { recursive: true });
    await mkdir(path.join(folder, 'assets/icons'), { recursive: true });
    await writeFile(path.join(folder, 'migrations/002 Bad name.sql'), 'CREATE TABLE x (y int);');
    await symlink('/etc/passwd', path.join(folder, 'LICENSE'));
    const { problems, message } = await refusal(folder);
    expect(problems).toEqual([
      'not allowed in a plugin: LICENSE (a symbolic link or special file)',
      'not allowed in a plugin: assets/icons (a nested folder)',
      'not allowed in a plugin: migrations/002 Bad name.sql (not a migration named NNN-name.sql)',
      'not allowed in a plugin: node_modules/ (a folder other than migrations/ and assets/)',
      expect.stringMatching(/^not allowed in a plugin: notes\.txt \(not an archive file/) as string,
    ]);
    expect(message).toContain('notes.txt');
  });

  it('refuses a manifest whose bundles are missing or unnamed', async () => {
    const folder = await copyOfSample();
    await rm(path.join(folder, 'server.js'));
    await writeFile(
      path.join(folder, 'plugin.json'),
      JSON.stringify({ id: 'naming-policy', version: '1', server: 'server.js' }),
    );
    expect((await refusal(folder)).problems).toEqual([
      'plugin.json: version must be x.y.z',
      'server.js is missing',
      'ui.js is present but plugin.json names no ui',
    ]);
  });
});
