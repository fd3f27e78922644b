// How often each cluster's rules were evaluated, and how the last evaluation went: counted in memory after every
// evaluation (one per scrape tier of each owned cluster, so a write each time would double alerting's writes) and
// added to alert_evaluation every few seconds and at stop, in one statement. GET /metrics reads the table, so any
// instance can say it (alerting-telemetry.ts).
import type pg from 'pg';

interface Pending {
  evaluations: number;
  failures: number;
  lastAt: Date;
  lastMs: number;
}

export class EvaluationCounts {
  private pending = new Map<string, Pending>();

  note(clusterId: string, durationMs: number, failed: boolean): void {
    const counted = this.pending.get(clusterId) ?? { evaluations: 0, failures: 0, lastAt: new Date(0), lastMs: 0 };
    counted.evaluations++;
    if (failed) counted.failures++;
    counted.lastAt = new Date();
    counted.lastMs = Math.round(durationMs);
    this.pending.set(clusterId, counted);
  }

  /**
   * Adds what was counted since the last flush. A cluster deleted meanwhile (its row gone, the foreign key refuses)
   * loses its counts; on any other failure they are kept for the next flush.
   */
  async flush(pool: pg.Pool): Promise<void> {
    if (this.pending.size === 0) return;
    const taken = [...this.pending.entries()];
    this.pending = new Map();
    try {
      await addCounts(pool, taken);
    } catch (error) {
      if ((error as { code?: unknown }).code !== FOREIGN_KEY_VIOLATION) {
        this.keep(taken);
        throw error;
      }
      for (const row of taken) {
        await addCounts(pool, [row]).catch((each: unknown) => {
          if ((each as { code?: unknown }).code !== FOREIGN_KEY_VIOLATION) this.keep([row]);
        });
      }
    }
  }

  private keep(rows: readonly (readonly [string, Pending])[]): void {
    for (const [clusterId, counted] of rows) {
      const newer = this.pending.get(clusterId);
      this.pending.set(
        clusterId,
        newer
          ? {
              ...newer,
              evaluations: newer.evaluations + counted.evaluations,
              failures: newer.failures + counted.failures,
            }
          : counted,
      );
    }
  }
}

const FOREIGN_KEY_VIOLATION = '23503';

async function addCounts(pool: pg.Pool, rows: readonly (readonly [string, Pending])[]): Promise<void> {
  await pool.query(
    `INSERT INTO alert_evaluation AS e (cluster_id, evaluations, failures, last_at, last_ms)
     SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::timestamptz[], $5::int[])
     ON CONFLICT (cluster_id) DO UPDATE
        SET evaluations = e.evaluations + EXCLUDED.evaluations, failures = e.failures + EXCLUDED.failures,
            last_at = EXCLUDED.last_at, last_ms = EXCLUDED.last_ms`,
    [
      rows.map(([clusterId]) => clusterId),
      rows.map(([, counted]) => counted.evaluations),
      rows.map(([, counted]) => counted.failures),
      rows.map(([, counted]) => counted.lastAt),
      rows.map(([, counted]) => counted.lastMs),
    ],
  );
}
