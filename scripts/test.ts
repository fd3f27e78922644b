// `npm test`: the static checks and the test run at once. The static checks (type-check, lint, formatting, dependency
// rules, unused code) are pure CPU and take about 100 s of the two-core machine; the test run's first group (broker
// files waiting on JVMs and cadences) leaves cores idle much of its wall clock (the `time:` lines say how much). So
// the static checks run at the lowest CPU priority: they take only cycles the tests leave, and no test's timing moves
// for them. Their output comes whole when they end; the exit code is non-zero when either half failed.
// The test run's output passes through the secret sweep (secret-sweep-run.ts) on its way to the terminal.
import { spawn } from 'node:child_process';
import { SecretSweep } from './secret-sweep-run.ts';

function run(command: string, args: readonly string[], lowPriority: boolean, sweep?: SecretSweep): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(lowPriority ? 'nice' : command, lowPriority ? ['-n', '19', command, ...args] : args, {
      stdio: sweep ? ['inherit', 'pipe', 'pipe'] : 'inherit',
      // Piped, vitest would drop its colours; a terminal keeps them.
      env: sweep
        ? { ...process.env, ...sweep.environment, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) }
        : process.env,
    });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      process.stdout.write(chunk);
      sweep?.read(chunk);
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      process.stderr.write(chunk);
      sweep?.read(chunk);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const started = Date.now();
const staticChecks = run('node', ['--import', 'tsx', 'scripts/static-checks.ts'], true).then((code) => {
  console.log(
    `static checks ${code === 0 ? 'passed' : 'FAILED'} after ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return code;
});
const sweep = new SecretSweep();
const tests = run('npx', ['vitest', 'run', ...process.argv.slice(2)], false, sweep);
const [staticCode, testCode] = await Promise.all([staticChecks, tests]);
const clean = sweep.finish();
if (staticCode !== 0) console.log('npm test: the static checks FAILED (their output is above)');
if (!clean) console.log('npm test: the secret sweep FAILED (a secret of the run in clear: the places are above)');
process.exit(staticCode !== 0 || testCode !== 0 || !clean ? 1 : 0);
