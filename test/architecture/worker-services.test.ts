// A worker service's file says what it is: every `workerServices` entry of a descriptor loads a `<name>.worker.ts`, so
// what runs for the process's lifetime in the worker is found by its name, beside the `*.job.ts` the scheduler runs.
import { describe, expect, it } from 'vitest';
import {
  defineModule,
  type ModuleDescriptor,
  type WorkerServiceDeclaration,
} from '../../src/modules/kernel/plugin/index.ts';
import { installedModules } from '../../src/installation/modules.ts';
import { lazyImportPath } from './module-rules.ts';

function misnamedWorkerServices(descriptors: readonly ModuleDescriptor[]): string[] {
  return descriptors.flatMap((descriptor) =>
    descriptor.workerServices
      .map((service) => ({ id: service.id, path: lazyImportPath(service.load) }))
      .filter(({ path }) => !path.endsWith('.worker.ts'))
      .map(({ id, path }) => `${descriptor.id}/${id} loads ${path}, not a *.worker.ts file`),
  );
}

describe('worker services', () => {
  it('are loaded from *.worker.ts files in every installed module', () => {
    expect(installedModules.flatMap((descriptor) => descriptor.workerServices).length).toBeGreaterThan(5);
    expect(misnamedWorkerServices(installedModules)).toEqual([]);
  });

  it('a service loaded from any other file is named', () => {
    const stray = defineModule({
      id: 'routing',
      title: '',
      layer: 'feature',
      description: '',
      // Any file but a *.worker.ts: the check reads only the path.
      workerServices: [
        {
          id: 'sync',
          stage: 'scrape',
          load: (() => import('./cruise.ts')) as unknown as WorkerServiceDeclaration['load'],
        },
      ],
    });
    // The test runner may have rewritten the path (to one from the repository root): its end is what counts.
    expect(misnamedWorkerServices([stray])).toEqual([
      expect.stringMatching(/^routing\/sync loads \S*cruise\.ts, not a \*\.worker\.ts file$/),
    ]);
  });
});
