// dependency-cruiser over a tree laid out like this repository, with the rules and options of the root
// .dependency-cruiser.cjs and the tree's own tsconfig.json (for the `@/*` paths).
import path from 'node:path';
import { cruise, type ICruiseResult, type IReporterOutput, type OutputType } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

export const repositoryRoot = path.resolve(import.meta.dirname, '../..');

export interface ModuleImport {
  /** Module ids: the folder names under src/modules/<layer>/. */
  readonly importer: string;
  readonly imported: string;
  /** Repository paths of the importing and the imported file. */
  readonly file: string;
  readonly target: string;
  readonly fromTest: boolean;
  /** A dynamic `import()` or a type-only import: nothing of the imported module loads with the importer. */
  readonly lazy: boolean;
}

const MODULE_FILE = /^src\/modules\/(?:kernel|platform|feature)\/([^/]+)\//;
const TEST_FILE = /\.test\.tsx?$/;

/** Cruises `directories` of the tree at `root`; without an output type the output is the cruise result itself. */
export async function cruiseWithBoundaryRules(
  root: string,
  directories: string[],
  outputType?: OutputType,
): Promise<IReporterOutput> {
  const options = await extractDepcruiseOptions(path.join(repositoryRoot, '.dependency-cruiser.cjs'));
  const tsConfigFile = path.join(root, 'tsconfig.json');
  return cruise(
    directories,
    { ...options, baseDir: root, tsConfig: { fileName: tsConfigFile }, ...(outputType ? { outputType } : {}) },
    {},
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
}

export async function cruiseResult(root: string, directories: string[]): Promise<ICruiseResult> {
  const { output } = await cruiseWithBoundaryRules(root, directories);
  if (typeof output === 'string') throw new Error('dependency-cruiser returned a report instead of a cruise result');
  return output;
}

/** Every import (type-only and dynamic ones too) from a file of one module to a file of another, under src and worker. */
export async function moduleImports(root = repositoryRoot): Promise<ModuleImport[]> {
  const { modules } = await cruiseResult(root, ['src', 'worker']);
  const imports = new Map<string, ModuleImport>();
  for (const cruised of modules) {
    const importer = MODULE_FILE.exec(cruised.source)?.[1];
    if (!importer) continue;
    for (const dependency of cruised.dependencies) {
      const imported = MODULE_FILE.exec(dependency.resolved)?.[1];
      if (!imported || imported === importer) continue;
      const edge = {
        importer,
        imported,
        file: cruised.source,
        target: dependency.resolved,
        fromTest: TEST_FILE.test(cruised.source),
        lazy: dependency.dynamic || dependency.dependencyTypes.includes('type-only'),
      };
      imports.set(`${edge.file} ${edge.target}`, edge);
    }
  }
  return [...imports.values()].sort((a, b) => a.file.localeCompare(b.file) || a.target.localeCompare(b.target));
}
