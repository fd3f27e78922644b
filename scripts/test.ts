// `npm test`: the test run, then the static checks (type-check, lint, formatting, dependency rules, unused code).
// One after the other, not at once: on the two-core machine the static checks beside the tests, even at the lowest
// CPU priority (nice 19, or SCHED_IDLE), made the integration project take 219 s against 136–154 s alone, while they
// take 145–190 s alone (docs/performance.md, 2026-12-07). Their output comes whole when they end; the exit code is
// non-zero when either half failed, and both halves always run.
// The test run's output passes through the secret sweep (secret-sweep-run.ts) on its way to the terminal.
import { spawn } from 'node:child_process';
import { SecretSweep } from './secret-sweep-run.ts';

function run(command: string, args: readonly string[], sweep?: SecretSweep): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
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

const sweep = new SecretSweep();
const testCode = await run('npx', ['vitest', 'run', ...process.argv.slice(2)], sweep);
const started = Date.now();
const staticCode = await run('node', ['--import', 'tsx', 'scripts/static-checks.ts']);
console.log(
  `static checks ${staticCode === 0 ? 'passed' : 'FAILED'} after ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
const clean = sweep.finish();
if (staticCode !== 0) console.log('npm test: the static checks FAILED (their output is above)');
if (!clean) console.log('npm test: the secret sweep FAILED (a secret of the run in clear: the places are above)');
process.exit(staticCode !== 0 || testCode !== 0 || !clean ? 1 : 0);
