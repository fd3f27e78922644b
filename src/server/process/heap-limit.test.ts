import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEB_HEAP_MB, webHeapArguments } from './heap-limit.ts';

/** The heap limit, in MB, of a Node process started with these arguments (as the supervisor starts the web). */
function heapLimitMb(args: string[]): number {
  const printed = execFileSync(
    process.execPath,
    [...args, '-e', 'process.stdout.write(String(require("node:v8").getHeapStatistics().heap_size_limit))'],
    { env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8' },
  );
  return Number(printed) / 1024 / 1024;
}

describe('the web process heap limit', () => {
  it('limits the old generation to 512 MB unless told otherwise, so V8 collects before it grows past it', () => {
    expect(webHeapArguments({})).toEqual([`--max-old-space-size=${String(DEFAULT_WEB_HEAP_MB)}`]);
    // Old generation plus the young one: a little above the limit, far below V8's default on a large machine.
    const limit = heapLimitMb(webHeapArguments({}));
    expect(limit).toBeGreaterThanOrEqual(DEFAULT_WEB_HEAP_MB);
    expect(limit).toBeLessThan(DEFAULT_WEB_HEAP_MB + 128);
  });

  it('takes FLOTILLA_WEB_MAX_HEAP_MB, and 0 for V8’s own limit', () => {
    expect(webHeapArguments({ FLOTILLA_WEB_MAX_HEAP_MB: '1024' })).toEqual(['--max-old-space-size=1024']);
    expect(heapLimitMb(webHeapArguments({ FLOTILLA_WEB_MAX_HEAP_MB: '1024' }))).toBeGreaterThanOrEqual(1024);
    expect(webHeapArguments({ FLOTILLA_WEB_MAX_HEAP_MB: '0' })).toEqual([]);
    expect(webHeapArguments({ FLOTILLA_WEB_MAX_HEAP_MB: ' ' })).toEqual([
      `--max-old-space-size=${String(DEFAULT_WEB_HEAP_MB)}`,
    ]);
  });

  it('refuses to start with a limit that is no whole number of megabytes or too small to run the web app', () => {
    for (const value of ['512MB', '1.5', '-1', '100'])
      expect(() => webHeapArguments({ FLOTILLA_WEB_MAX_HEAP_MB: value })).toThrow(/FLOTILLA_WEB_MAX_HEAP_MB/);
  });
});
