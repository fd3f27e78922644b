// Stored events under a newer content policy: each batch takes rows masked by an older version (or stored before
// sealing, their originals in clear), opens each original from the vault, masks it with the policy in force and
// seals it again — bounded batches, rows locked with SKIP LOCKED so several instances share the work. A seal that
// does not open on its row is not guessed at: the row keeps nothing (fail closed) and says why in its redactions.
import { randomUUID } from 'node:crypto';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import { inTransaction } from '@/base/db/transaction.ts';
import { maskAndSeal, openStoredOriginal, policyVersionInForce } from '@/modules/platform/governance/index.ts';
import type { BrokerEventView } from './events.schema.ts';
import { plainValues, typedFromGoverned } from './stored-properties.ts';

const PENDING = 'policy_version < $1 OR sealed_cipher IS NULL';

interface PendingRow {
  seq: string;
  event_id: string | null;
  address: string | null;
  properties: BrokerEventView['properties'];
  sealed_cipher: string | null;
  sealed_key_id: string | null;
}

/** What the governance module's remask report counts for broker events. */
export const brokerEventStore = {
  title: 'Broker event properties',
  async remaining(db: Database, version: number): Promise<number> {
    const [row] = await db.query<{ n: string }>(`SELECT count(*) AS n FROM broker_event WHERE ${PENDING}`, [version]);
    return Number(row?.n ?? 0);
  },
};

function originalOf(row: PendingRow): BrokerEventView['properties'] | undefined {
  if (!row.sealed_cipher || !row.sealed_key_id || !row.event_id) return row.properties;
  try {
    return openStoredOriginal(
      { cipher: row.sealed_cipher, keyId: row.sealed_key_id },
      `broker_event:${row.event_id}`,
    ) as BrokerEventView['properties'];
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
      `SELECT seq, event_id, address, properties, sealed_cipher, sealed_key_id FROM broker_event
        WHERE ${PENDING} ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [version, limit],
    );
    if (rows.length === 0) return 0;
    const originals = rows.map(originalOf);
    const eventIds = rows.map((row) => row.event_id ?? randomUUID());
    const stored = await maskAndSeal(
      runtime,
      rows.map((row, index) => ({
        values: plainValues(originals[index] ?? {}),
        original: originals[index] ?? {},
        address: row.address ?? undefined,
        boundTo: `broker_event:${String(eventIds[index])}`,
      })),
    );
    const unopened = [
      { location: 'properties', dataClass: 'other-sensitive', action: 'drop', by: 'vault:does-not-open' },
    ];
    await client.query(
      `UPDATE broker_event AS b
          SET event_id = v.event_id, properties = v.properties, policy_version = v.policy_version,
              sealed_cipher = v.sealed_cipher, sealed_key_id = v.sealed_key_id, redactions = v.redactions
         FROM unnest($1::bigint[], $2::uuid[], $3::jsonb[], $4::int[], $5::text[], $6::text[], $7::jsonb[])
              AS v(seq, event_id, properties, policy_version, sealed_cipher, sealed_key_id, redactions)
        WHERE b.seq = v.seq`,
      [
        rows.map((row) => row.seq),
        eventIds,
        rows.map((_, index) => {
          const original = originals[index];
          return JSON.stringify(original ? typedFromGoverned(original, stored[index]?.masked ?? {}) : {});
        }),
        stored.map((one) => one.policyVersion),
        stored.map((one) => one.sealed.cipher),
        stored.map((one) => one.sealed.keyId),
        rows.map((_, index) => JSON.stringify(originals[index] ? (stored[index]?.redactions ?? []) : unopened)),
      ],
    );
    return rows.length;
  });
}
