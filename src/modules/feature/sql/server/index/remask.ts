// message_index rows under a newer content policy: each batch takes rows masked by an older version, opens each
// original from the vault (sealed bound to its row_id), governs it with the policy in force and seals it again —
// bounded batches, rows locked with SKIP LOCKED so several instances share the work. A seal that does not open on
// its row is not guessed at: the row keeps no content (fail closed) and says why in its redactions.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import { inTransaction } from '@/base/db/transaction.ts';
import { openStoredOriginal, policyVersionInForce } from '@/modules/platform/governance/index.ts';
import type { PropertyValue } from '../message-row.ts';
import { sealBinding, storeMessages, type CapturedMessage, type StoredMessage } from './stored-message.ts';

const PENDING = 'policy_version < $1';

interface PendingRow {
  seq: string;
  indexed_at: Date;
  row_id: string;
  cluster_id: string;
  node_id: string;
  node_name: string;
  address: string;
  queue: string | null;
  message_time: Date;
  priority: number | null;
  durable: boolean | null;
  expiration: Date | null;
  origin: 'capture' | 'sample';
  subscription_id: string | null;
  sealed_cipher: string;
  sealed_key_id: string;
}

interface Original {
  id: string;
  correlation_id: string | null;
  reply_to: string | null;
  properties: Record<string, PropertyValue>;
  body: unknown;
  bodyEncoding?: 'base64';
}

/** What the governance module's remask report counts for the message index. */
export const messageIndexStore = {
  title: 'SQL message index',
  async remaining(db: Database, version: number): Promise<number> {
    const [row] = await db.query<{ n: string }>(`SELECT count(*) AS n FROM message_index WHERE ${PENDING}`, [version]);
    return Number(row?.n ?? 0);
  },
};

function originalOf(row: PendingRow): Original | undefined {
  try {
    return openStoredOriginal(
      { cipher: row.sealed_cipher, keyId: row.sealed_key_id },
      sealBinding(row.row_id),
    ) as Original;
  } catch {
    return undefined;
  }
}

function capturedOf(row: PendingRow, original: Original): CapturedMessage {
  return {
    clusterId: row.cluster_id,
    nodeId: row.node_id,
    node: row.node_name,
    origin: row.origin,
    subscriptionId: row.subscription_id,
    id: original.id,
    address: row.address,
    queue: row.queue,
    time: row.message_time.toISOString(),
    priority: row.priority,
    durable: row.durable,
    expiration: row.expiration?.toISOString() ?? null,
    correlation_id: original.correlation_id,
    reply_to: original.reply_to,
    properties: original.properties,
    body:
      original.bodyEncoding === 'base64' && typeof original.body === 'string'
        ? Buffer.from(original.body, 'base64')
        : original.body,
  };
}

const UNOPENED = [{ location: 'message', dataClass: 'other-sensitive', action: 'drop', by: 'vault:does-not-open' }];

/** Rewrites up to `limit` pending rows; answers how many. */
export async function remaskIndexBatch(
  runtime: { readonly db: Database; readonly bus: DatabaseBus },
  limit: number,
): Promise<number> {
  const version = await policyVersionInForce(runtime);
  return inTransaction(runtime.db.pool, async (client) => {
    const { rows } = await client.query<PendingRow>(
      `SELECT seq, indexed_at, row_id, cluster_id, node_id, node_name, address, queue, message_time, priority, durable,
              expiration, origin, subscription_id, sealed_cipher, sealed_key_id
         FROM message_index WHERE ${PENDING} ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [version, limit],
    );
    if (rows.length === 0) return 0;
    const opened = rows.map((row) => ({ row, original: originalOf(row) }));
    const open = opened.filter((one): one is { row: PendingRow; original: Original } => one.original !== undefined);
    const stored = await storeMessages(
      runtime,
      open.map(({ row, original }) => capturedOf(row, original)),
      open.map(({ row }) => row.row_id),
    );
    const byRow = new Map<string, StoredMessage>(stored.map((one) => [one.rowId, one]));
    const column = <T>(pick: (row: PendingRow, one: StoredMessage | undefined) => T) =>
      rows.map((row) => pick(row, byRow.get(row.row_id)));
    await client.query(
      `UPDATE message_index AS m
          SET message_id = v.message_id, correlation_id = v.correlation_id, reply_to = v.reply_to,
              properties = v.properties, body = v.body, body_withheld = v.body_withheld,
              policy_version = v.policy_version, redactions = v.redactions,
              sealed_cipher = v.sealed_cipher, sealed_key_id = v.sealed_key_id
         FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[],
                     $8::text[], $9::int[], $10::jsonb[], $11::text[], $12::text[])
              AS v(seq, indexed_at, message_id, correlation_id, reply_to, properties, body, body_withheld,
                   policy_version, redactions, sealed_cipher, sealed_key_id)
        WHERE m.seq = v.seq AND m.indexed_at = v.indexed_at`,
      [
        column((row) => row.seq),
        column((row) => row.indexed_at),
        column((_, one) => one?.messageId ?? '(withheld)'),
        column((_, one) => one?.correlationId ?? null),
        column((_, one) => one?.replyTo ?? null),
        column((_, one) => JSON.stringify(one?.properties ?? {})),
        column((_, one) => (one === undefined || one.body === null ? null : JSON.stringify(one.body))),
        column((_, one) => (one ? one.bodyWithheld : 'the sealed original does not open on this row')),
        column((_, one) => one?.policyVersion ?? version),
        column((_, one) => JSON.stringify(one ? one.redactions : UNOPENED)),
        column((row, one) => one?.sealed.cipher ?? row.sealed_cipher),
        column((row, one) => one?.sealed.keyId ?? row.sealed_key_id),
      ],
    );
    return rows.length;
  });
}
