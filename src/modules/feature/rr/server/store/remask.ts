// Stored correlations under a newer content policy: each batch takes rows that keep content masked by an older
// version, opens each original from the vault (bound to its row), masks it with the policy in force and seals it
// again. Bounded batches, rows locked with SKIP LOCKED so several instances share the work. A seal that does not open
// on its row is not guessed at: the row keeps nothing and says why in its redactions.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import { inTransaction } from '@/base/db/transaction.ts';
import {
  openStoredOriginal,
  policyVersionInForce,
  processKeys,
  sealSecret,
} from '@/modules/platform/governance/index.ts';
import { maskContent, rrSealBinding, sealedContentOf, type CorrelationContent } from './correlation-rows.ts';

const PENDING = 'sealed_cipher IS NOT NULL AND policy_version < $1';

/** What the governance module's remask report counts for correlations. */
export const rrEventStore = {
  title: 'Request-reply correlations (ids and request properties)',
  async remaining(db: Database, version: number): Promise<number> {
    const [row] = await db.query<{ n: string }>(`SELECT count(*) AS n FROM rr_event WHERE ${PENDING}`, [version]);
    return Number(row?.n ?? 0);
  },
};

interface PendingRow {
  cluster_id: string;
  key_hash: string;
  sealed_cipher: string;
  sealed_key_id: string;
}

function originalOf(row: PendingRow): CorrelationContent | undefined {
  try {
    return openStoredOriginal(
      { cipher: row.sealed_cipher, keyId: row.sealed_key_id },
      rrSealBinding(row.cluster_id, row.key_hash),
    ) as CorrelationContent;
  } catch {
    return undefined;
  }
}

/** Rewrites up to `limit` pending rows; answers how many. */
export async function remaskBatch(
  runtime: { readonly db: Database; readonly bus: DatabaseBus },
  limit: number,
): Promise<number> {
  const version = await policyVersionInForce(runtime);
  return inTransaction(runtime.db.pool, async (client) => {
    const { rows } = await client.query<PendingRow>(
      `SELECT cluster_id, key_hash, sealed_cipher, sealed_key_id FROM rr_event
        WHERE ${PENDING} ORDER BY stored_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [version, limit],
    );
    if (rows.length === 0) return 0;
    const originals = rows.map(originalOf);
    const opened = originals.filter((original): original is CorrelationContent => original !== undefined);
    const masked = await maskContent(runtime, opened);
    const keys = processKeys();
    let next = 0;
    const updates = rows.map((row, index) => {
      const original = originals[index];
      if (!original) {
        return {
          ...row,
          correlation_id: null,
          message_id: null,
          headers: null,
          policy_version: version,
          redactions: [
            { location: 'headers', dataClass: 'other-sensitive', action: 'drop', by: 'vault:does-not-open' },
          ],
        };
      }
      const result = masked[next++];
      const sealed = sealSecret(keys, sealedContentOf(original), rrSealBinding(row.cluster_id, row.key_hash));
      return {
        cluster_id: row.cluster_id,
        key_hash: row.key_hash,
        sealed_cipher: sealed.cipher,
        sealed_key_id: sealed.keyId,
        correlation_id: result?.correlationId ?? null,
        message_id: result?.messageId ?? null,
        headers: result?.headers ?? null,
        policy_version: result?.policyVersion ?? version,
        redactions: result?.redactions ?? [],
      };
    });
    await client.query(
      `UPDATE rr_event AS e
          SET correlation_id = v.correlation_id, message_id = v.message_id, headers = v.headers,
              policy_version = v.policy_version, redactions = v.redactions,
              sealed_cipher = v.sealed_cipher, sealed_key_id = v.sealed_key_id
         FROM jsonb_to_recordset($1::jsonb) AS v(cluster_id uuid, key_hash text, correlation_id text, message_id text,
              headers jsonb, policy_version integer, redactions jsonb, sealed_cipher text, sealed_key_id text)
        WHERE e.cluster_id = v.cluster_id AND e.key_hash = v.key_hash`,
      [JSON.stringify(updates)],
    );
    return rows.length;
  });
}
