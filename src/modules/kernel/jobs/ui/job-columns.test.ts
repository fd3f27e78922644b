import { describe, expect, it } from 'vitest';
import { scheduleInWords } from './job-columns.tsx';

describe('a job’s schedule in words', () => {
  it('says the interval, not the setting that holds it; a cron job keeps its expression', () => {
    expect(scheduleInWords({ schedule: 'every audit.retention-sweep-interval', intervalMs: 3_600_000 })).toBe(
      'every 1 h',
    );
    expect(scheduleInWords({ schedule: 'every scrape.metric-maintenance-interval', intervalMs: 5_400_000 })).toBe(
      'every 90 min',
    );
    expect(scheduleInWords({ schedule: 'cron 0 3 * * *', intervalMs: 86_400_000 })).toBe('cron 0 3 * * *');
  });
});
