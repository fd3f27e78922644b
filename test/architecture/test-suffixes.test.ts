// Every test file carries the suffix of a project that provides what its kits start (test-suffixes.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { misplacedSuites, suffixOf } from './test-suffixes.ts';

describe('test file suffixes', () => {
  it('match what each file’s kits need at run time', () => {
    const paths = ['src', 'test']
      .flatMap((root) => readdirSync(root, { recursive: true, encoding: 'utf8' }).map((file) => path.join(root, file)))
      .filter((file) => file.endsWith('.test.ts') && !file.startsWith('test/architecture/fixtures/'));
    expect(paths.length).toBeGreaterThan(200);
    const files = paths.map((file) => ({ path: file, source: readFileSync(file, 'utf8') }));
    expect(misplacedSuites(files)).toEqual([]);
  });

  it('names a broker suite without the broker suffix, and lets a type-only import pass', () => {
    const broker = "import { startCluster } from '@test/artemis/index.ts';\n";
    expect(suffixOf('src/x/a.int.test.ts')).toBe('int');
    expect(suffixOf('src/x/a.test.ts')).toBe('unit');
    expect(
      misplacedSuites([
        { path: 'src/x/a.int.test.ts', source: broker },
        { path: 'src/x/b.broker.test.ts', source: broker },
        { path: 'src/x/c.test.ts', source: "import type { BrokerNode } from '@test/artemis/index.ts';\n" },
        { path: 'src/x/d.test.ts', source: "import {\n  openSecuredRuntime,\n} from '@test/secured-runtime.ts';\n" },
      ]),
    ).toEqual([
      'src/x/a.int.test.ts imports @test/artemis/index.ts, which needs *.broker.test.ts or *.browser.test.ts or *.e2e.test.ts',
      'src/x/d.test.ts imports @test/secured-runtime.ts, which needs *.int.test.ts or *.broker.test.ts or *.browser.test.ts or *.e2e.test.ts',
    ]);
  });
});
