// Jobs have one home in every module: each `jobs` entry of a descriptor loads `server/jobs/<name>.job.ts`, so what the
// scheduler runs is found in the same place whichever module declares it (the scheduler itself is the jobs module's).
import { describe, expect, it } from 'vitest';
import { defineModule, type JobDeclaration, type ModuleDescriptor } from '../../src/modules/kernel/plugin/index.ts';
import { installedModules } from '../../src/installation/modules.ts';
import { lazyImportPath } from './module-rules.ts';

function misplacedJobs(descriptors: readonly ModuleDescriptor[]): string[] {
  return descriptors.flatMap((descriptor) =>
    descriptor.jobs
      .map((job) => ({ id: job.id, path: lazyImportPath(job.load) }))
      .filter(({ path }) => !/\/server\/jobs\/[^/]+\.job\.ts$/.test(path))
      .map(({ id, path }) => `${descriptor.id}: job ${id} loads ${path}, not server/jobs/<name>.job.ts`),
  );
}

describe('jobs', () => {
  it('are loaded from server/jobs/*.job.ts in every installed module', () => {
    expect(installedModules.flatMap((descriptor) => descriptor.jobs).length).toBeGreaterThan(4);
    expect(misplacedJobs(installedModules)).toEqual([]);
  });

  it('a job loaded from anywhere else is named', () => {
    const stray = defineModule({
      id: 'routing',
      title: '',
      layer: 'feature',
      description: '',
      jobs: [
        {
          id: 'routing.sync',
          description: '',
          schedule: { cron: '* * * * *' },
          exclusive: true,
          // Any file outside server/jobs: the check reads only the path.
          load: (() => import('./cruise.ts')) as unknown as JobDeclaration['load'],
        },
      ],
    });
    expect(misplacedJobs([stray])).toEqual([
      expect.stringMatching(/^routing: job routing\.sync loads \S*cruise\.ts, not server\/jobs\/<name>\.job\.ts$/),
    ]);
  });
});
