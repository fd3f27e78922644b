// The sweep record of one node and tier (scrape_sweep): started, completed or failed, how long, how many rows,
// the listing's total (tier C sizes its POST from it) and the limiter wait. Written in the node's transaction.
import type { PoolClient } from 'pg';
import type { Tier } from '../read/tiers.ts';

export interface SweepOutcome {
  readonly clusterId: string;
  readonly nodeId: string;
  readonly tier: Tier;
  readonly instanceId: string;
  readonly startedAt: Date;
  readonly finishedAt: Date;
  /** Undefined when the sweep succeeded. */
  readonly error?: string;
  readonly rowsPersisted?: number;
  readonly listedTotal?: number;
  readonly limiterWaitMs?: number;
  readonly intervalMs: number;
}

export async function recordSweep(client: PoolClient, outcome: SweepOutcome): Promise<void> {
  const ok = outcome.error === undefined;
  await client.query(
    `INSERT INTO scrape_sweep (node_id, tier, cluster_id, instance_id, last_started_at, last_completed_at,
                               last_failed_at, last_duration_ms, last_error, rows_persisted, listed_total,
                               limiter_wait_ms, interval_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (node_id, tier) DO UPDATE SET
       cluster_id = EXCLUDED.cluster_id, instance_id = EXCLUDED.instance_id,
       last_started_at = EXCLUDED.last_started_at,
       last_completed_at = COALESCE(EXCLUDED.last_completed_at, scrape_sweep.last_completed_at),
       last_failed_at = COALESCE(EXCLUDED.last_failed_at, scrape_sweep.last_failed_at),
       last_duration_ms = EXCLUDED.last_duration_ms, last_error = EXCLUDED.last_error,
       rows_persisted = EXCLUDED.rows_persisted,
       listed_total = COALESCE(EXCLUDED.listed_total, scrape_sweep.listed_total),
       limiter_wait_ms = COALESCE(EXCLUDED.limiter_wait_ms, scrape_sweep.limiter_wait_ms),
       interval_ms = EXCLUDED.interval_ms`,
    [
      outcome.nodeId,
      outcome.tier,
      outcome.clusterId,
      outcome.instanceId,
      outcome.startedAt,
      ok ? outcome.finishedAt : null,
      ok ? null : outcome.finishedAt,
      outcome.finishedAt.getTime() - outcome.startedAt.getTime(),
      outcome.error ?? null,
      outcome.rowsPersisted ?? 0,
      outcome.listedTotal ?? null,
      outcome.limiterWaitMs ?? null,
      outcome.intervalMs,
    ],
  );
}
