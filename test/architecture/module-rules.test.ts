import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineModule } from '../../src/modules/kernel/plugin/descriptor.ts';
import { installedModules } from '../../src/server/modules/installed-modules.ts';
import { findMisplacedModules, findViolations, importsOf, readSources, type SourceFile } from './module-rules.ts';

const root = path.resolve(import.meta.dirname, '../..');
const file = (filePath: string, imports: string[], text = ''): SourceFile => ({ path: filePath, imports, text });

describe('module dependency rules', () => {
  it('hold for the whole source tree', () => {
    expect(findViolations(readSources(root), installedModules)).toEqual([]);
    expect(findViolations(readSources(root, 'worker'), installedModules)).toEqual([]);
  });

  it('every module folder holds an installed descriptor of its own layer', () => {
    expect(findMisplacedModules(root, installedModules)).toEqual([]);
  });

  it('catch each kind of violation', () => {
    const descriptors = [
      defineModule({ id: 'audit', title: '', layer: 'kernel', description: '' }),
      defineModule({ id: 'queues', title: '', layer: 'feature', description: '', requires: ['audit'] }),
      defineModule({ id: 'routing', title: '', layer: 'feature', description: '' }),
    ];
    const violations = findViolations(
      [
        file('src/modules/kernel/audit/server/x.ts', ['../../../feature/queues/index.ts']),
        file('src/modules/feature/queues/server/y.ts', [
          '@/modules/feature/routing/index.ts',
          '@/modules/kernel/audit/server/audit.service.ts',
        ]),
        file('src/modules/feature/routing/server/z.ts', ['rhea', '@/modules/kernel/plugin/descriptor.ts']),
        file('src/modules/feature/routing/server/tail.ts', [], "headers: { 'Content-Type': 'text/event-stream' }"),
        file('src/server/http/shortcut.ts', ['@/modules/feature/queues/server/q.ts']),
      ],
      descriptors,
    );
    expect(violations).toEqual([
      'src/modules/kernel/audit/server/x.ts: kernel module "audit" imports feature module "queues"',
      'src/modules/kernel/audit/server/x.ts imports module "queues", which "audit" does not declare in requires',
      'src/modules/feature/queues/server/y.ts imports module "routing", which "queues" does not declare in requires',
      'src/modules/feature/routing/server/z.ts imports rhea: broker client libraries stay inside platform/broker',
      'src/modules/feature/routing/server/tail.ts opens a server-sent-event stream: only kernel/stream and the SQL live tail may',
      'src/server/http/shortcut.ts imports feature module "queues": the shell only composes modules',
    ]);
  });

  it('reads static, re-exported, type-only and dynamic imports', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '@/b.ts';",
      "export { c } from '../c.ts';",
      "const d = () => import('./jobs/d.job.ts');",
      "import './side-effect.css';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a.ts', '@/b.ts', '../c.ts', './jobs/d.job.ts', './side-effect.css']);
  });
});
