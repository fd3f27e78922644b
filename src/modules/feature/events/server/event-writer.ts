// Persists broker notifications: each is queued in a bounded buffer and written in batches (one INSERT of up to
// BATCH rows through unnest, `seq` in arrival order), attributed to its logical node through the clusters module's
// `cluster_logical_node` view. A full buffer drops the newcomer and counts it per cluster (broker_event_dropped).
// Only the worker that owns a cluster writes its events, so each is stored once fleet-wide. After each commit the
// bus carries the new seq range per cluster (never the payloads: NOTIFY holds 8 KB; ADR 0009), and the change
// signals the notifications imply go out, coalesced. Properties are stored masked by the content policy in force
// (with its version and redactions) and the originals sealed in the vault, bound to each row's event_id.
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import { maskAndSeal } from '@/modules/platform/governance/index.ts';
import { inTransaction } from '@/base/db/transaction.ts';
import type { BrokerEvent } from '@/modules/platform/broker/index.ts';
import { EVENTS_CHANNEL, type EventsAppended } from './events-channel.ts';
import { SignalCoalescer, topicsOfKind } from './event-signals.ts';
import { plainValues, typedFromGoverned } from './stored-properties.ts';
import { logger } from '@/base/log/log.ts';

const eventsLog = logger('events');

/** Rows per INSERT: large enough to amortise the round trip, small enough to keep one statement short. */
const BATCH = 1_000;
/** How long a lone event may wait for company before it is written. */
const LINGER_MS = 50;

export interface EventWriterDependencies {
  readonly pool: Pool;
  /** Whether this worker owns the cluster (only the owner writes its events). */
  readonly owns: (clusterId: string) => boolean;
  readonly capacity: () => number;
  readonly publishSignal: (topic: string, clusterId: string) => Promise<void>;
  readonly notify: (channel: string, payload: string) => Promise<void>;
  /** What the content policy is read through (masking and sealing before the rows are written). */
  readonly governance: { readonly db: Database; readonly bus: DatabaseBus };
  readonly log?: (message: string) => void;
}

interface Queued {
  readonly event: BrokerEvent;
  readonly receivedAt: Date;
}

function text(event: BrokerEvent, name: string): string | null {
  const value = event.properties[name];
  if (!value || value.type === 'null') return null;
  return typeof value.value === 'string' || typeof value.value === 'number' ? String(value.value) : null;
}

function isClusterEcho(event: BrokerEvent): boolean {
  const distance = Number(text(event, '_AMQ_Distance') ?? 0);
  return Number.isFinite(distance) && distance > 0;
}

export class EventWriter {
  private buffer: Queued[] = [];
  private readonly dropped = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly signals: SignalCoalescer;
  private stopped = false;

  constructor(private readonly dependencies: EventWriterDependencies) {
    this.signals = new SignalCoalescer((topic, clusterId) => {
      dependencies
        .publishSignal(topic, clusterId)
        .catch((error: unknown) => this.log(`signal ${topic}: ${String(error)}`));
    });
  }

  /** Never blocks: the subscription's loop hands each notification over and goes on. */
  consume(event: BrokerEvent): void {
    if (this.stopped || !this.dependencies.owns(event.clusterKey)) return;
    // A cluster forwards each node's binding and consumer notifications to the others (_AMQ_Distance > 0). The
    // node where it happened is subscribed too, so the echo would store the same happening twice, under the
    // wrong node.
    if (isClusterEcho(event)) return;
    if (this.buffer.length >= this.dependencies.capacity()) {
      this.dropped.set(event.clusterKey, (this.dropped.get(event.clusterKey) ?? 0) + 1);
      this.schedule(0);
      return;
    }
    this.buffer.push({ event, receivedAt: new Date() });
    this.schedule(this.buffer.length >= BATCH ? 0 : LINGER_MS);
  }

  /** Writes everything queued; resolves when it is committed. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing.then(() => this.drain());
    return this.writing;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.flush();
    this.signals.flush();
  }

  private schedule(delayMs: number): void {
    if (this.timer && delayMs > 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delayMs);
    this.timer.unref();
  }

  private log(message: string): void {
    if (this.dependencies.log) this.dependencies.log(`[events] ${message}`);
    else eventsLog.error(message);
  }

  private async drain(): Promise<void> {
    while (this.buffer.length > 0 || this.dropped.size > 0) {
      const batch = this.buffer.splice(0, BATCH);
      const dropped = [...this.dropped];
      this.dropped.clear();
      try {
        await this.write(batch, dropped);
      } catch (error) {
        // Not retried: a batch the database refuses would block every later one. Counted as dropped instead.
        this.log(`writing ${batch.length} events failed: ${error instanceof Error ? error.message : String(error)}`);
        for (const { event } of batch)
          this.dropped.set(event.clusterKey, (this.dropped.get(event.clusterKey) ?? 0) + 1);
        for (const [clusterId, count] of dropped)
          this.dropped.set(clusterId, (this.dropped.get(clusterId) ?? 0) + count);
        return;
      }
    }
  }

  private async write(batch: readonly Queued[], dropped: ReadonlyArray<readonly [string, number]>): Promise<void> {
    const eventIds = batch.map(() => randomUUID());
    const stored = await maskAndSeal(
      this.dependencies.governance,
      batch.map((queued, index) => ({
        values: plainValues(queued.event.properties),
        original: queued.event.properties,
        address: queued.event.address,
        boundTo: `broker_event:${String(eventIds[index])}`,
      })),
    );
    const appended = await inTransaction(this.dependencies.pool, async (client) => {
      if (dropped.length > 0) {
        await client.query(
          `INSERT INTO broker_event_dropped (cluster_id, dropped, last_at)
           SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[])
           ON CONFLICT (cluster_id) DO UPDATE
             SET dropped = broker_event_dropped.dropped + EXCLUDED.dropped, last_at = EXCLUDED.last_at`,
          [dropped.map(([id]) => id), dropped.map(([, count]) => count), dropped.map(() => new Date())],
        );
      }
      if (batch.length === 0) return [];
      const column = <T>(pick: (queued: Queued) => T) => batch.map(pick);
      const result = await client.query<{ seq: string; cluster_id: string }>(
        `INSERT INTO broker_event (cluster_id, node_id, logical_node, broker_name, kind, address, queue, consumer_id,
                                   session_id, connection_id, remote_address, user_name, properties, broker_time,
                                   received_at, event_id, policy_version, sealed_cipher, sealed_key_id, redactions)
         SELECT v.cluster_id, v.node_id, coalesce(ln.logical_node, 'node:' || v.node_id::text), ln.broker_name,
                v.kind, v.address, v.queue, v.consumer_id, v.session_id, v.connection_id, v.remote_address,
                v.user_name, v.properties, v.broker_time, v.received_at, v.event_id, v.policy_version,
                v.sealed_cipher, v.sealed_key_id, v.redactions
           FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                       $8::text[], $9::text[], $10::text[], $11::jsonb[], $12::timestamptz[], $13::timestamptz[],
                       $14::uuid[], $15::int[], $16::text[], $17::text[], $18::jsonb[])
                WITH ORDINALITY AS v(cluster_id, node_id, kind, address, queue, consumer_id, session_id,
                                     connection_id, remote_address, user_name, properties, broker_time, received_at,
                                     event_id, policy_version, sealed_cipher, sealed_key_id, redactions, ord)
           LEFT JOIN cluster_logical_node ln ON ln.node_id = v.node_id
          ORDER BY v.ord
         RETURNING seq, cluster_id`,
        [
          column((q) => q.event.clusterKey),
          column((q) => q.event.nodeKey),
          column((q) => q.event.kind),
          column((q) => q.event.address ?? null),
          column((q) => q.event.queue ?? null),
          column((q) => q.event.consumerId ?? null),
          column((q) => q.event.sessionId ?? null),
          column((q) => q.event.connectionId ?? null),
          column((q) => text(q.event, '_AMQ_RemoteAddress')),
          column((q) => text(q.event, '_AMQ_User') ?? text(q.event, '_AMQ_ValidatedUser')),
          batch.map((q, index) => JSON.stringify(typedFromGoverned(q.event.properties, stored[index]?.masked ?? {}))),
          column((q) => new Date(q.event.time)),
          column((q) => q.receivedAt),
          eventIds,
          stored.map((one) => one.policyVersion),
          stored.map((one) => one.sealed.cipher),
          stored.map((one) => one.sealed.keyId),
          stored.map((one) => JSON.stringify(one.redactions)),
        ],
      );
      const ranges = new Map<string, EventsAppended>();
      for (const row of result.rows) {
        const seq = Number(row.seq);
        const range = ranges.get(row.cluster_id);
        ranges.set(row.cluster_id, {
          clusterId: row.cluster_id,
          fromSeq: Math.min(range?.fromSeq ?? seq, seq),
          toSeq: Math.max(range?.toSeq ?? seq, seq),
        });
      }
      return [...ranges.values()];
    });
    // After the commit: readers find the rows the bus announces.
    for (const range of appended) await this.dependencies.notify(EVENTS_CHANNEL, JSON.stringify(range));
    for (const { event } of batch) {
      for (const topic of topicsOfKind(event.kind)) this.signals.offer(topic, event.clusterKey);
    }
  }
}
