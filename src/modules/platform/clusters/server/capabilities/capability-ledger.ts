// The one writer of the capability ledger after registration: the HA reconciler (NOTIFICATIONS and MESSAGE_IO from
// the worker's native subscriptions) and the scrape (MANAGEMENT_READ and MANAGEMENT_WRITE from its management calls
// and the scheduled recheck) record what they saw here. Every row says when it was last confirmed and how.
import type { PoolClient } from 'pg';

type CapabilityName = 'MANAGEMENT_READ' | 'MANAGEMENT_WRITE' | 'NOTIFICATIONS' | 'MESSAGE_IO';
export type ConfirmedBy = 'registration' | 'rediscovery' | 'subscription' | 'scrape' | 'recheck' | 'command';

export interface CapabilityVerdict {
  readonly value: 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN';
  readonly detail: string;
  readonly snippet: string | null;
}

export interface LedgerEntry {
  readonly capability: CapabilityName;
  readonly verdict: CapabilityVerdict;
  readonly confirmedBy: ConfirmedBy;
}

/** An unchanged verdict is confirmed again at most this often: "last confirmed" stays within a minute, cheaply. */
const RECONFIRM_MS = 30_000;

interface StoredRow {
  capability: string;
  value: string;
  detail: string;
  snippet: string | null;
  checked_at: Date;
}

/**
 * Records what was seen. UNKNOWN never overwrites an answer (a connection being reopened says nothing new); an
 * unchanged answer only refreshes its confirmation time. Answers whether any value, detail or snippet changed, so
 * the caller knows to send a `health` signal.
 */
export async function recordCapabilities(
  client: PoolClient,
  clusterId: string,
  entries: readonly LedgerEntry[],
  now = new Date(),
): Promise<boolean> {
  if (entries.length === 0) return false;
  const stored = await client.query<StoredRow>(
    `SELECT capability, value, detail, snippet, checked_at FROM cluster_capability
      WHERE cluster_id = $1 AND capability = ANY($2::text[]) FOR UPDATE`,
    [clusterId, entries.map((entry) => entry.capability)],
  );
  const previous = new Map(stored.rows.map((row) => [row.capability, row]));
  let changed = false;
  const writes: LedgerEntry[] = [];
  for (const entry of entries) {
    const before = previous.get(entry.capability);
    if (entry.verdict.value === 'UNKNOWN' && before) continue;
    const same =
      before?.value === entry.verdict.value &&
      before.detail === entry.verdict.detail &&
      before.snippet === entry.verdict.snippet;
    if (!same) changed = true;
    if (!same || now.getTime() - before.checked_at.getTime() >= RECONFIRM_MS) writes.push(entry);
  }
  if (writes.length > 0) {
    await client.query(
      `INSERT INTO cluster_capability (cluster_id, capability, value, detail, snippet, checked_at, confirmed_by,
                                       available_at)
       SELECT $1, v.capability, v.value, v.detail, v.snippet, $2, v.confirmed_by,
              CASE WHEN v.value = 'AVAILABLE' THEN $2::timestamptz END
         FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
              AS v(capability, value, detail, snippet, confirmed_by)
       ON CONFLICT (cluster_id, capability) DO UPDATE SET
         value = EXCLUDED.value, detail = EXCLUDED.detail, snippet = EXCLUDED.snippet,
         checked_at = EXCLUDED.checked_at, confirmed_by = EXCLUDED.confirmed_by,
         available_at = coalesce(EXCLUDED.available_at, cluster_capability.available_at)`,
      [
        clusterId,
        now,
        writes.map((entry) => entry.capability),
        writes.map((entry) => entry.verdict.value),
        writes.map((entry) => entry.verdict.detail),
        writes.map((entry) => entry.verdict.snippet),
        writes.map((entry) => entry.confirmedBy),
      ],
    );
  }
  return changed;
}
