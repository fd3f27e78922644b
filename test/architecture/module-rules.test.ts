import { describe, expect, it } from 'vitest';
import { defineModule } from '../../src/modules/kernel/plugin/index.ts';
import { installedModules } from '../../src/installation/modules.ts';
import { moduleImports, repositoryRoot, type ModuleImport } from './cruise.ts';
import { findMisplacedModules, findRequiresMismatches, findSseViolations, readSources } from './module-rules.ts';

const edge = (importer: string, imported: string, fromTest = false, lazy = false): ModuleImport => ({
  importer,
  imported,
  file: `src/modules/feature/${importer}/server/x${fromTest ? '.int.test' : ''}.ts`,
  target: `src/modules/kernel/${imported}/index.ts`,
  fromTest,
  lazy,
});

describe('module rules', () => {
  it('hold for the whole source tree: imports between modules are exactly the declared requires', async () => {
    expect(findRequiresMismatches(await moduleImports(), installedModules)).toEqual([]);
    expect(findSseViolations([...readSources(repositoryRoot), ...readSources(repositoryRoot, 'worker')])).toEqual([]);
    // It reads and parses the whole tree: seconds on two cores when every other unit file runs beside it.
  }, 30_000);

  it('every module folder holds an installed descriptor of its own layer', () => {
    expect(findMisplacedModules(repositoryRoot, installedModules)).toEqual([]);
  });

  it('catch an undeclared import, a stale declaration, an eager import of a used module and a stray event stream', () => {
    const descriptors = [
      defineModule({ id: 'audit', title: '', layer: 'kernel', description: '' }),
      defineModule({ id: 'metrics', title: '', layer: 'feature', description: '' }),
      defineModule({ id: 'queues', title: '', layer: 'feature', description: '', requires: ['audit', 'plugin'] }),
      defineModule({ id: 'routing', title: '', layer: 'feature', description: '', requires: ['audit'] }),
      defineModule({ id: 'alerting', title: '', layer: 'feature', description: '', uses: ['metrics', 'queues'] }),
      defineModule({ id: 'triage', title: '', layer: 'feature', description: '', uses: ['metrics'] }),
    ];
    const imports = [
      edge('queues', 'audit'),
      edge('queues', 'routing'),
      edge('queues', 'plugin'),
      edge('routing', 'audit', true),
      edge('alerting', 'metrics', false, true),
      edge('alerting', 'queues'),
    ];
    expect(findRequiresMismatches(imports, descriptors)).toEqual([
      'src/modules/feature/queues/server/x.ts imports module "routing", which "queues" declares in neither requires nor uses',
      'src/modules/feature/alerting/server/x.ts imports module "queues" statically, but "alerting" only uses it: import it lazily',
      'module "routing" declares "audit" in requires, but none of its files imports it',
      'module "triage" declares "metrics" in uses, but none of its files imports it',
    ]);
    expect(
      findSseViolations([
        {
          path: 'src/modules/feature/routing/server/tail.ts',
          text: "headers: { 'Content-Type': 'text/event-stream' }",
        },
        { path: 'src/modules/kernel/stream/server/hub.ts', text: 'text/event-stream' },
      ]),
    ).toEqual([
      'src/modules/feature/routing/server/tail.ts opens a server-sent-event stream: only kernel/stream and the SQL live tail may',
    ]);
  });
});
