// The run-wide secret sweep's own half (test/support/secret-sweep.ts has the rest): the folder the test processes
// record in, the product log lines of the run's output searched as they pass, and the closing line. Any secret found
// fails `npm test`.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isLogLine, secretsIn, SWEEP_DIR_VARIABLE } from '../test/support/secret-sweep.ts';

interface SweepRecord {
  readonly where: string;
  readonly searched: number;
  readonly found: readonly string[];
}

export class SecretSweep {
  readonly folder = mkdtempSync(path.join(tmpdir(), 'flotilla-secret-sweep-'));
  private carry = '';
  private logLines = 0;
  private readonly inOutput: string[] = [];

  get environment(): Record<string, string> {
    return { [SWEEP_DIR_VARIABLE]: this.folder };
  }

  /** A chunk of the test run's standard output or error, passed on unchanged; its log lines are searched. */
  read(chunk: string): void {
    const lines = (this.carry + chunk).split('\n');
    this.carry = lines.pop() ?? '';
    for (const line of lines) this.search(line);
  }

  private search(line: string): void {
    // Lines of several processes may interleave on one pipe: a log line is searched from where it starts.
    const start = line.indexOf('{"level":');
    if (start < 0 || !isLogLine(line.slice(start))) return;
    this.logLines += 1;
    for (const name of secretsIn(line)) this.inOutput.push(`${name} in a log line: ${line.slice(start, start + 200)}`);
  }

  /** Prints what was searched and found; false when any secret was found. */
  finish(print: (line: string) => void = console.log): boolean {
    this.search(this.carry);
    const records: SweepRecord[] = readdirSync(this.folder).flatMap((file) =>
      readFileSync(path.join(this.folder, file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as SweepRecord),
    );
    rmSync(this.folder, { recursive: true, force: true });
    const databases = records.filter((record) => record.where.startsWith('database '));
    const unsearched = databases.filter((record) => record.where.includes('not searched'));
    const apps = records.filter((record) => record.where.startsWith('the output of the app'));
    const found = [
      ...this.inOutput,
      ...records.flatMap((record) => record.found.map((what) => `${what} (${record.where})`)),
    ];
    print(
      `secret sweep: ${String(this.logLines)} log lines, the output of ${String(apps.length)} started apps and ` +
        `${String(databases.length - unsearched.length)} databases ` +
        `(${String(databases.reduce((sum, record) => sum + record.searched, 0))} tables) searched; ` +
        `${String(found.length)} secrets found${unsearched.length > 0 ? `; ${String(unsearched.length)} databases could not be searched` : ''}`,
    );
    for (const what of [...found, ...unsearched.map((record) => record.where)].slice(0, 20)) print(`  ${what}`);
    return found.length === 0;
  }
}
