import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleImports } from './cruise.ts';

const fixture = path.join(import.meta.dirname, 'fixtures/boundaries');

describe('moduleImports', () => {
  it('lists every import from one module into another, marking those from test files', async () => {
    const imports = (await moduleImports(fixture)).map(({ importer, imported, file, fromTest }) => ({
      importer,
      imported,
      file: path.basename(file),
      fromTest,
    }));
    expect(imports).toEqual([
      { importer: 'queues', imported: 'audit', file: 'imports-other-module-internals.ts', fromTest: false },
      { importer: 'queues', imported: 'scrape', file: 'imports-scrape-writer.ts', fromTest: false },
      { importer: 'queues', imported: 'scrape', file: 'queue-grid.test.ts', fromTest: true },
      { importer: 'queues', imported: 'audit', file: 'queue-store.ts', fromTest: false },
      { importer: 'queues', imported: 'audit', file: 'queues.test.ts', fromTest: true },
      { importer: 'queues', imported: 'scrape', file: 'reads-scrape.ts', fromTest: false },
      { importer: 'queues', imported: 'commands', file: 'runs-command.ts', fromTest: false },
      { importer: 'audit', imported: 'queues', file: 'imports-feature.ts', fromTest: false },
      { importer: 'plugin', imported: 'audit', file: 'imports-module.ts', fromTest: false },
      { importer: 'broker', imported: 'commands', file: 'imports-commands.ts', fromTest: false },
      { importer: 'broker', imported: 'queues', file: 'imports-feature.ts', fromTest: false },
    ]);
  });
});
