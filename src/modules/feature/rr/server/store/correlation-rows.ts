// How a Correlation becomes an rr_event row. A completed pair keeps no content (its timing is what is read); any
// other state keeps the request's headers and properties masked by the policy in force, the original sealed beside the
// row and bound to it. The correlation key is kept only as a hash: a trace by correlation id hashes what it is given.
import { createHash } from 'node:crypto';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import {
  governMessages,
  processKeys,
  sealSecret,
  type Governed,
  type GovernedMessage,
} from '@/modules/platform/governance/index.ts';
import type { Correlation } from '../correlator/rr-types.ts';

export function keyHashOf(clusterId: string, key: string): string {
  return createHash('sha256').update(`${clusterId}\u0000${key}`).digest('hex');
}

/** The row key a seal is bound to. */
export function rrSealBinding(clusterId: string, keyHash: string): string {
  return `rr_event:${clusterId}:${keyHash}`;
}

export interface CorrelationRow {
  readonly cluster_id: string;
  readonly key_hash: string;
  readonly address: string;
  readonly reply_address: string | null;
  readonly pattern: string;
  readonly state: string;
  readonly feed: string;
  readonly node_id: string;
  readonly correlation_id: string | null;
  readonly message_id: string | null;
  readonly broker_message_id: string | null;
  readonly request_at: string;
  readonly reply_at: string | null;
  readonly latency_ms: number | null;
  readonly clock: string;
  readonly deadline_at: string | null;
  readonly deadline_source: string | null;
  readonly state_at: string;
  readonly note: string | null;
  readonly headers: Record<string, unknown> | null;
  readonly policy_version: number;
  readonly redactions: unknown;
  readonly sealed_cipher: string | null;
  readonly sealed_key_id: string | null;
}

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());

function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Rows for a batch of correlations of one cluster; only the ones that keep content go through the policy. */
export async function correlationRows(
  governance: { readonly db: Database; readonly bus: DatabaseBus },
  clusterId: string,
  correlations: readonly Correlation[],
): Promise<CorrelationRow[]> {
  const keeping = correlations.filter((one) => one.state !== 'COMPLETED' && one.state !== 'AWAITING_REPLY');
  const governed =
    keeping.length === 0
      ? []
      : await governMessages(
          governance,
          keeping.map((one) => ({
            address: one.address,
            headers: {
              ...(one.messageId === null ? {} : { messageId: one.messageId }),
              ...(one.correlationId === null ? {} : { correlationId: one.correlationId }),
              ...(one.replyAddress === null ? {} : { replyTo: one.replyAddress }),
            },
            properties: one.headers,
            body: { kind: 'empty' as const },
          })),
          { clear: false },
        );
  const governedByKey = new Map<string, Governed<GovernedMessage>>();
  keeping.forEach((one, index) => governedByKey.set(one.key, governed[index] as Governed<GovernedMessage>));
  const keys = processKeys();
  return correlations.map((one) => {
    const keyHash = keyHashOf(clusterId, one.key);
    const masked = governedByKey.get(one.key);
    const sealed = masked
      ? sealSecret(
          keys,
          JSON.stringify({ messageId: one.messageId, correlationId: one.correlationId, properties: one.headers }),
          rrSealBinding(clusterId, keyHash),
        )
      : null;
    return {
      cluster_id: clusterId,
      key_hash: keyHash,
      address: one.address,
      reply_address: one.replyAddress,
      pattern: one.pattern,
      state: one.state,
      feed: one.feed,
      node_id: one.nodeId,
      correlation_id: masked ? text(masked.value.headers.correlationId) : null,
      message_id: masked ? text(masked.value.headers.messageId) : null,
      broker_message_id: one.brokerMessageId,
      request_at: new Date(one.requestAt).toISOString(),
      reply_at: iso(one.replyAt),
      latency_ms: one.latencyMs === null ? null : Math.round(one.latencyMs),
      clock: one.clock,
      deadline_at: iso(one.deadlineAt),
      deadline_source: one.deadlineSource,
      state_at: new Date(one.stateAt).toISOString(),
      note: one.note,
      headers: masked ? masked.value.properties : null,
      policy_version: masked ? masked.policyVersion : 0,
      redactions: masked ? masked.redactions : [],
      sealed_cipher: sealed?.cipher ?? null,
      sealed_key_id: sealed?.keyId ?? null,
    };
  });
}
