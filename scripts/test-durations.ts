// `npm run test:durations`: records each test file's duration from the last run (test-results/file-times.json) in
// test/support/file-durations.json, which orders the next runs' files (duration-sequencer.ts). Files of the table
// that the run did not include keep their recorded duration; a file no longer in the tree is dropped.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FileTiming } from '../test/support/time-report.ts';
import { DURATIONS_FILE } from '../test/support/file-order.ts';

const root = path.resolve(import.meta.dirname, '..');
const fileTimes = path.join(root, 'test-results/file-times.json');
if (!existsSync(fileTimes)) {
  console.error('no test-results/file-times.json: run the tests first (`npm test`), then this');
  process.exit(1);
}
const timings = JSON.parse(readFileSync(fileTimes, 'utf8')) as FileTiming[];
const table: Record<string, number> = existsSync(DURATIONS_FILE)
  ? (JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>)
  : {};
for (const timing of timings) {
  table[`${timing.project}:${timing.file}`] = Math.round((timing.endedAt - timing.startedAt) / 100) / 10;
}
const kept = Object.fromEntries(
  Object.entries(table)
    .filter(([key]) => existsSync(path.join(root, key.slice(key.indexOf(':') + 1))))
    .sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync(DURATIONS_FILE, `${JSON.stringify(kept, null, 2)}\n`);
console.log(`${Object.keys(kept).length} files' durations written to ${path.relative(root, DURATIONS_FILE)}`);
