// The static half of `npm test`: type-check, lint, formatting, the dependency rules and unused code, in two lanes at
// once (ESLint's type-aware rules take most of the time; the others together take about as long), each check's output
// printed whole when it ends, with its time. Exits non-zero when any check fails, after every check has run.
// ESLint runs with a 64 MB young generation (`lint` in package.json): the type-aware rules allocate a great deal of
// short-lived data, and the default semi-space made it spend a sixth of its CPU in scavenges (measured on 2026-12-07,
// five runs: 182–192 CPU-seconds with the default, 151–159 with 32, 64 or 128 MB; tsc gained nothing from it).
import { spawn } from 'node:child_process';

const LANES: readonly (readonly string[])[] = [['lint'], ['typecheck', 'format:check', 'lint:deps', 'lint:unused']];

function run(script: string): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(Buffer.concat(output));
      console.log(`${code === 0 ? 'passed' : 'FAILED'}: npm run ${script} (${seconds} s)`);
      resolve(code === 0);
    });
  });
}

async function lane(scripts: readonly string[]): Promise<boolean> {
  let passed = true;
  for (const script of scripts) passed = (await run(script)) && passed;
  return passed;
}

const results = await Promise.all(LANES.map(lane));
if (results.includes(false)) process.exit(1);
