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

/** The content a non-completed correlation keeps, in clear (what is sealed) and as the policy leaves it. */
export interface CorrelationContent {
  readonly address: string;
  readonly messageId: string | null;
  readonly correlationId: string | null;
  readonly replyAddress: string | null;
  readonly properties: Readonly<Record<string, unknown>>;
}

export interface MaskedContent {
  readonly correlationId: string | null;
  readonly messageId: string | null;
  readonly headers: Record<string, unknown>;
  readonly policyVersion: number;
  readonly redactions: unknown;
}

/** The ids and properties of each correlation through the policy in force, as message content. */
export async function maskContent(
  governance: { readonly db: Database; readonly bus: DatabaseBus },
  contents: readonly CorrelationContent[],
): Promise<MaskedContent[]> {
  if (contents.length === 0) return [];
  const governed = await governMessages(
    governance,
    contents.map((one) => ({
      address: one.address,
      headers: {
        ...(one.messageId === null ? {} : { messageId: one.messageId }),
        ...(one.correlationId === null ? {} : { correlationId: one.correlationId }),
        ...(one.replyAddress === null ? {} : { replyTo: one.replyAddress }),
      },
      properties: one.properties,
      body: { kind: 'empty' as const },
    })),
    { clear: false },
  );
  return governed.map((one: Governed<GovernedMessage>) => ({
    correlationId: text(one.value.headers.correlationId),
    messageId: text(one.value.headers.messageId),
    headers: one.value.properties,
    policyVersion: one.policyVersion,
    redactions: one.redactions,
  }));
}

/** What is sealed beside a row: the content in clear. */
export function sealedContentOf(content: CorrelationContent): string {
  return JSON.stringify(content);
}

/** Rows for a batch of correlations of one cluster; only the ones that keep content go through the policy. */
export async function correlationRows(
  governance: { readonly db: Database; readonly bus: DatabaseBus },
  clusterId: string,
  correlations: readonly Correlation[],
): Promise<CorrelationRow[]> {
  const keeping = correlations.filter((one) => one.state !== 'COMPLETED' && one.state !== 'AWAITING_REPLY');
  const contents = keeping.map((one) => ({
    address: one.address,
    messageId: one.messageId,
    correlationId: one.correlationId,
    replyAddress: one.replyAddress,
    properties: one.headers,
  }));
  const masked = await maskContent(governance, contents);
  const maskedByKey = new Map<string, { masked: MaskedContent; content: CorrelationContent }>();
  keeping.forEach((one, index) => {
    const content = contents[index];
    const result = masked[index];
    if (content && result) maskedByKey.set(one.key, { masked: result, content });
  });
  const keys = processKeys();
  return correlations.map((one) => {
    const keyHash = keyHashOf(clusterId, one.key);
    const kept = maskedByKey.get(one.key);
    const sealed = kept ? sealSecret(keys, sealedContentOf(kept.content), rrSealBinding(clusterId, keyHash)) : null;
    return {
      cluster_id: clusterId,
      key_hash: keyHash,
      address: one.address,
      reply_address: one.replyAddress,
      pattern: one.pattern,
      state: one.state,
      feed: one.feed,
      node_id: one.nodeId,
      correlation_id: kept?.masked.correlationId ?? null,
      message_id: kept?.masked.messageId ?? null,
      broker_message_id: one.brokerMessageId,
      request_at: new Date(one.requestAt).toISOString(),
      reply_at: iso(one.replyAt),
      latency_ms: one.latencyMs === null ? null : Math.round(one.latencyMs),
      clock: one.clock,
      deadline_at: iso(one.deadlineAt),
      deadline_source: one.deadlineSource,
      state_at: new Date(one.stateAt).toISOString(),
      note: one.note,
      headers: kept?.masked.headers ?? null,
      policy_version: kept?.masked.policyVersion ?? 0,
      redactions: kept?.masked.redactions ?? [],
      sealed_cipher: sealed?.cipher ?? null,
      sealed_key_id: sealed?.keyId ?? null,
    };
  });
}
