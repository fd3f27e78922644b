// `npm run lint:deps`: the boundary rules of .dependency-cruiser.cjs over src, worker, test, bench and scripts. Through the API
// rather than the depcruise CLI, which exits with the number of errors: at 256 errors that exit status reads 0.
import { cruiseWithBoundaryRules, repositoryRoot } from '../test/architecture/cruise.ts';

const { output, exitCode } = await cruiseWithBoundaryRules(
  repositoryRoot,
  ['src', 'worker', 'test', 'bench', 'scripts'],
  'err',
);
process.stdout.write(typeof output === 'string' ? output : '');
process.exitCode = exitCode === 0 ? 0 : 1;
