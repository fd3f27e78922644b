// The interrupted sweep (ADR 35): PENDING audit rows whose process is gone are finished as INTERRUPTED. A process
// holds the 'audit.owner' lock of its boot id while it lives (process-owner.ts), so a row's owner is gone exactly
// when that lock is free. The check takes the lock for the length of the sweep's transaction, so two sweeps (two
// instances) never finish one row twice, and a row its work finishes meanwhile is left as the work wrote it.
import type pg from 'pg';
import { lockKeyText } from '@/base/advisory-lock.ts';
import { interruptionText } from './interruption.ts';

export interface SweptRow {
  readonly id: string;
  readonly clusterId: string | null;
}

interface PendingRow {
  readonly id: string;
  readonly cluster_id: string | null;
  readonly node_detail: unknown;
}

// One owner's lock is tried once (DISTINCT first), and only for rows still PENDING.
const PENDING_OF_GONE_OWNERS = `
  SELECT id, cluster_id, node_detail FROM audit_event
   WHERE outcome = 'PENDING'
     AND owner IN (SELECT owner FROM (SELECT DISTINCT owner FROM audit_event
                                       WHERE outcome = 'PENDING' AND owner IS NOT NULL) AS pending
                    WHERE pg_try_advisory_xact_lock(hashtextextended($1 || owner, 0)))
   FOR UPDATE`;

const FINISH = `
  UPDATE audit_event AS event SET outcome = 'INTERRUPTED', error = finished.error, finished_at = now()
    FROM unnest($1::uuid[], $2::text[]) AS finished(id, error)
   WHERE event.id = finished.id AND event.outcome = 'PENDING'`;

/** Finishes every PENDING row of a gone process as INTERRUPTED, in one transaction; answers the rows finished. */
export async function sweepInterrupted(pool: pg.Pool): Promise<SweptRow[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<PendingRow>(PENDING_OF_GONE_OWNERS, [lockKeyText('audit.owner')]);
    if (rows.length > 0)
      await client.query(FINISH, [rows.map((row) => row.id), rows.map((row) => interruptionText(row.node_detail))]);
    await client.query('COMMIT');
    return rows.map((row) => ({ id: row.id, clusterId: row.cluster_id }));
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
