import { describe, expect, it } from 'vitest';
import { timeReport, type FileTiming } from './time-report.ts';

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
});
