// The REST client cannot drift from the API: packages/client holds exactly what `npm run client:generate` makes from
// the procedures now (the OpenAPI document and the SDK generated from it), file for file. A changed procedure that
// was not followed by a regeneration fails here, naming the file.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_DIR, generateClientFiles } from '../../scripts/client-generate.ts';

async function committedFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  files.set('openapi.json', await readFile(path.join(CLIENT_DIR, 'openapi.json'), 'utf8'));
  const generated = path.join(CLIENT_DIR, 'src/generated');
  for (const entry of await readdir(generated, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    files.set(path.relative(CLIENT_DIR, absolute), await readFile(absolute, 'utf8'));
  }
  return files;
}

describe('packages/client', () => {
  it('is what `npm run client:generate` makes from the current procedures', async () => {
    const [expected, committed] = await Promise.all([generateClientFiles(), committedFiles()]);
    expect([...committed.keys()].sort(), 'files: run `npm run client:generate`').toEqual([...expected.keys()].sort());
    for (const [file, text] of expected)
      expect(committed.get(file), `${file} is stale: run \`npm run client:generate\``).toBe(text);
  }, 60_000);
});
