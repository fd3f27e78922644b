import { describe, expect, it } from 'vitest';
import { cpuBusyShare, timeReport, timeWithoutFiles, type CpuSample, type FileTiming } from './time-report.ts';

const file = (project: string, name: string, startedAt: number, endedAt: number): FileTiming => ({
  project,
  file: name,
  startedAt,
  endedAt,
});

describe('the time report', () => {
  it('gives each project its wall clock and summed time, earliest project first, and the slowest files first', () => {
    const lines = timeReport(
      [
        file('browser', 'b.test.ts', 50_000, 80_000),
        file('unit', 'u1.test.ts', 0, 2_000),
        file('unit', 'u2.test.ts', 1_000, 4_000),
        file('brokers', 'k.test.ts', 500, 40_500),
      ],
      81_000,
    );
    expect(lines).toEqual([
      'time: whole run 81.0 s, 4 files',
      'time: project unit: 4.0 s wall clock, 5.0 s in 2 files',
      'time: project brokers: 40.0 s wall clock, 40.0 s in 1 files',
      'time: project browser: 30.0 s wall clock, 30.0 s in 1 files',
      // The run began 1 s before the first file (81 s before the last file's end); nothing ran from 40.5 to 50 s.
      'time: no file running: 10.5 s (before the first 1.0 s, between files 9.5 s)',
      'time: the 4 slowest files',
      'time:     40.0 s  brokers  k.test.ts',
      'time:     30.0 s  browser  b.test.ts',
      'time:      3.0 s  unit  u2.test.ts',
      'time:      2.0 s  unit  u1.test.ts',
    ]);
  });

  it('shows at most ten files', () => {
    const many = Array.from({ length: 14 }, (_, i) => file('unit', `f${i}.test.ts`, 0, (i + 1) * 1000));
    const lines = timeReport(many, 14_000);
    expect(lines.filter((line) => line.endsWith('.test.ts'))).toHaveLength(10);
    expect(lines.at(-1)).toContain('f4.test.ts');
  });

  it('says how busy the cores were over the run and over each project, from the samples nearest before', () => {
    // Two cores sampled every 10 s: idle for the first 20 s, then fully busy.
    const cpu: CpuSample[] = [0, 10, 20, 30, 40].map((s) => ({
      at: s * 1000,
      busyMs: Math.max(0, s - 20) * 2000,
      totalMs: s * 2000,
    }));
    const lines = timeReport(
      [file('unit', 'u.test.ts', 0, 20_000), file('brokers', 'k.test.ts', 20_000, 40_000)],
      40_000,
      cpu,
    );
    expect(lines[0]).toBe('time: whole run 40.0 s, 2 files, cores 50 % busy');
    expect(lines[1]).toBe('time: project unit: 20.0 s wall clock, 20.0 s in 1 files, cores 0 % busy');
    expect(lines[2]).toBe('time: project brokers: 20.0 s wall clock, 20.0 s in 1 files, cores 100 % busy');
  });

  it('leaves the share out without two distinct samples', () => {
    expect(cpuBusyShare([], 0, 10)).toBeUndefined();
    expect(cpuBusyShare([{ at: 0, busyMs: 5, totalMs: 10 }], 0, 10)).toBeUndefined();
    expect(timeReport([file('unit', 'u.test.ts', 0, 1_000)], 1_000)[0]).toBe('time: whole run 1.0 s, 1 files');
  });

  it('counts the time no file ran: before the first, and in the gaps between overlapping files', () => {
    const files = [
      file('unit', 'a', 2_000, 5_000),
      file('unit', 'b', 3_000, 9_000), // overlaps a: no gap
      file('browser', 'c', 12_000, 14_000), // 3 s after b ended
      file('browser', 'd', 12_500, 13_000), // inside c
      file('browser', 'e', 14_000, 15_000), // starts as c ends: no gap
    ];
    expect(timeWithoutFiles(files, 0)).toEqual({ before: 2_000, between: 3_000 });
    expect(timeWithoutFiles([...files].reverse(), 0)).toEqual({ before: 2_000, between: 3_000 });
  });
});
