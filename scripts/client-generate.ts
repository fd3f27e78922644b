// The TypeScript client of the REST API (packages/client, `npm run client:generate`): the OpenAPI document of every
// installed module, as GET /api/v1/openapi.json serves it with every feature on, is written to
// packages/client/openapi.json, and @hey-api/openapi-ts makes the typed SDK from it in packages/client/src/generated
// (one function per operation, its input and answer types, a fetch client). Both are committed, so a script needs
// only the package; test/architecture/client-drift.test.ts fails when they differ from what this makes now.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import prettier from 'prettier';
import { buildOpenApiDocument } from '../src/server/http/openapi.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT_DIR = path.join(ROOT, 'packages/client');

/** The document with every installed module enabled (the client is for the whole API). */
function fullDocument(): unknown {
  return buildOpenApiDocument({ isEnabled: () => true });
}

async function formatted(file: string, text: string): Promise<string> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...options, filepath: file });
}

/** Every generated file (relative path → formatted text) for the current code, made in a temporary folder. */
export async function generateClientFiles(): Promise<Map<string, string>> {
  const work = await mkdtemp(path.join(tmpdir(), 'flotilla-client-'));
  try {
    const documentPath = path.join(work, 'openapi.json');
    await writeFile(documentPath, JSON.stringify(fullDocument(), null, 2));
    const output = path.join(work, 'generated');
    await createClient({
      input: documentPath,
      output: { path: output, importFileExtension: '.ts' },
      plugins: ['@hey-api/typescript', '@hey-api/sdk', '@hey-api/client-fetch'],
      logs: { level: 'silent' },
    });
    const files = new Map<string, string>();
    files.set(
      'openapi.json',
      await formatted(path.join(CLIENT_DIR, 'openapi.json'), await readFile(documentPath, 'utf8')),
    );
    for (const entry of await readdir(output, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const absolute = path.join(entry.parentPath, entry.name);
      const relative = path.join('src/generated', path.relative(output, absolute));
      files.set(relative, await formatted(path.join(CLIENT_DIR, relative), await readFile(absolute, 'utf8')));
    }
    return files;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  await rm(path.join(CLIENT_DIR, 'src/generated'), { recursive: true, force: true });
  const files = await generateClientFiles();
  for (const [relative, text] of files) {
    const target = path.join(CLIENT_DIR, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  console.log(`packages/client: ${String(files.size)} files written`);
}
