import { describe, expect, it } from 'vitest';
import { jobHealth, type JobStatusRow } from './job-status.ts';

const since = new Date('2026-11-22T00:00:00Z');
const row = (overrides: Partial<JobStatusRow>): JobStatusRow => ({
  jobId: 'audit.retention',
  instanceId: 'a',
  schedule: 'every audit.retention-sweep-interval',
  intervalMs: 60_000,
  lastStartedAt: null,
  lastFinishedAt: null,
  lastDurationMs: null,
  lastOutcome: null,
  lastError: null,
  lastSummary: null,
  lastCompletedAt: null,
  nextRunAt: null,
  consecutiveFailures: 0,
  scheduledSince: since,
  ...overrides,
});
const at = (ms: number) => new Date(since.getTime() + ms);

describe('jobHealth', () => {
  it('waits for a first run, then is OK', () => {
    expect(jobHealth(undefined, at(0))).toBe('WAITING');
    expect(jobHealth(row({}), at(30_000))).toBe('WAITING');
    expect(jobHealth(row({ lastOutcome: 'SUCCEEDED', lastCompletedAt: at(60_000) }), at(90_000))).toBe('OK');
  });

  it('is degraded after three missed intervals, not before', () => {
    const ran = row({ lastOutcome: 'SUCCEEDED', lastCompletedAt: at(0) });
    expect(jobHealth(ran, at(180_000))).toBe('OK');
    expect(jobHealth(ran, at(180_001))).toBe('DEGRADED');
    expect(jobHealth(row({}), at(180_001))).toBe('DEGRADED');
  });

  it('counts failed runs as missed', () => {
    const failing = row({ lastOutcome: 'FAILED', lastCompletedAt: at(0), lastFinishedAt: at(120_000) });
    expect(jobHealth(failing, at(121_000))).toBe('FAILING');
    expect(jobHealth(failing, at(181_000))).toBe('DEGRADED');
  });
});
