// Adding a feature module touches its own folder, the installation folder and thin route files only: no file of the
// roof (src/server, worker) or the shared floors (src/base, src/ui) may name it, a page route names nothing of it but
// its `ui.ts`, and an HTTP route (`route.ts`, e.g. the OIDC redirect) nothing but its `index.ts`. The five modules still to come copy what they see, so this is counted here
// rather than promised in docs/adding-a-module.md alone.
import { describe, expect, it } from 'vitest';
import { installedModules } from '../../src/installation/modules.ts';
import { readSources, type SourceFile } from './module-rules.ts';
import { repositoryRoot } from './cruise.ts';

const ALLOWED_FOLDERS = ['src/modules/', 'src/installation/'];

/** Where a module is named outside the places adding it may touch (its folder, the installation, route files). */
function footprintOutsideInstallation(sources: readonly SourceFile[], moduleIds: readonly string[]): string[] {
  const problems: string[] = [];
  for (const id of moduleIds) {
    const named = new RegExp(`modules/feature/${id}/([\\w./-]*)`, 'g');
    for (const file of sources) {
      if (ALLOWED_FOLDERS.some((folder) => file.path.startsWith(folder))) continue;
      const paths = [...file.text.matchAll(named)].map((match) => match[1] ?? '');
      if (paths.length === 0) continue;
      const entry = /^src\/app\/.*\/(page|layout)\.tsx$/.test(file.path)
        ? 'ui.ts'
        : /^src\/app\/.*\/route\.ts$/.test(file.path)
          ? 'index.ts'
          : undefined;
      if (!entry) problems.push(`${file.path} names module "${id}": only its folder and src/installation may`);
      else if (paths.some((named) => named !== entry))
        problems.push(`${file.path} reaches past "${id}"'s ${entry}: a route file only hands over to the module`);
    }
  }
  return problems;
}

const featureIds = installedModules.filter((module) => module.layer === 'feature').map((module) => module.id);

describe('a feature module’s footprint outside its folder', () => {
  it('is the installation folder and thin route files, for every installed feature module', () => {
    expect(featureIds.length).toBeGreaterThan(8);
    const sources = [...readSources(repositoryRoot), ...readSources(repositoryRoot, 'worker')];
    expect(footprintOutsideInstallation(sources, featureIds)).toEqual([]);
  });

  it('names a roof or floor file that names a module, and a route that reaches past its ui.ts', () => {
    const sources: SourceFile[] = [
      { path: 'src/server/http/sql-route.ts', text: "import { tail } from '@/modules/feature/sql/index.ts';" },
      { path: 'src/app/(console)/sql/page.tsx', text: "import { SqlScreen } from '@/modules/feature/sql/ui.ts';" },
      { path: 'src/app/(console)/sql/x/page.tsx', text: "import { Part } from '@/modules/feature/sql/ui/part.tsx';" },
      { path: 'src/app/api/v1/sql/[...step]/route.ts', text: "import { tail } from '@/modules/feature/sql/index.ts';" },
      { path: 'src/app/api/v1/sql/tail/route.ts', text: "import { tail } from '@/modules/feature/sql/server/t.ts';" },
      { path: 'src/installation/ui.ts', text: "import { sqlUi } from '@/modules/feature/sql/ui/contributions.ts';" },
      { path: 'src/modules/feature/rr/server/x.ts', text: "import { query } from '@/modules/feature/sql/index.ts';" },
    ];
    expect(footprintOutsideInstallation(sources, ['sql'])).toEqual([
      'src/server/http/sql-route.ts names module "sql": only its folder and src/installation may',
      'src/app/(console)/sql/x/page.tsx reaches past "sql"\'s ui.ts: a route file only hands over to the module',
      'src/app/api/v1/sql/tail/route.ts reaches past "sql"\'s index.ts: a route file only hands over to the module',
    ]);
  });
});
