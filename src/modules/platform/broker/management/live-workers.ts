// How many workers are alive across every instance: those whose report (health-report.worker.ts) is younger than two
// of their own intervals, the rule the health indicator reads a dead worker by. The scrape shares the clusters out
// by it.
import type { Pool } from 'pg';
import { REPORT_INTERVALS_ALIVE } from './health-report.settings.ts';

export async function countLiveWorkers(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ live: number }>(
    `SELECT count(*)::int AS live FROM broker_worker_report
      WHERE reported_at >= now() - interval_ms * $1::int * interval '1 millisecond'`,
    [REPORT_INTERVALS_ALIVE],
  );
  return rows[0]?.live ?? 0;
}
