// `npm run plugin:pack -- <folder> [--out file]`: turns a plugin's source folder (examples/plugins/naming-policy) into
// the archive Admin → Plugins takes (issue 33), refusing a folder holding anything the format does not allow (the
// packing itself is the plugins module's, src/modules/feature/plugins/pack/pack-folder.ts). Same folder, same bytes.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packPluginFolder, PluginPackError } from '@/modules/feature/plugins/index.ts';

const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { out: { type: 'string' } },
  });
  const [folder, ...extra] = positionals;
  if (folder === undefined || extra.length > 0) {
    console.error('usage: npm run plugin:pack -- <plugin folder> [--out file.zip]');
    process.exit(2);
  }
  const { bytes, manifest, entries } = await packPluginFolder(path.resolve(folder));
  const out = path.resolve(
    values.out ?? path.join(REPOSITORY_ROOT, 'dist/plugins', `${manifest.id}-${manifest.version}.zip`),
  );
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const shown = path.relative(process.cwd(), out);
  console.log(shown.startsWith('..') ? out : shown);
  console.log(
    `  ${manifest.id} ${manifest.version}: ${bytes.length} bytes, ${entries.length} entries, sha256 ${sha256}`,
  );
}

await main().catch((error: unknown) => {
  console.error(error instanceof PluginPackError ? error.message : error);
  process.exit(1);
});
