// Writes captured and sampled messages into message_index: rows are queued in a bounded buffer and written in
// batches (one INSERT … SELECT FROM unnest of up to BATCH rows, `seq` in arrival order), content governed and the
// originals sealed first (stored-message.ts). `accept` resolves once its rows are committed, so a capture consumer
// acknowledges a message only when its row is durable; a full buffer makes `accept` wait for room (back-pressure:
// the broker keeps what the worker has not acknowledged) instead of dropping. A batch the database refuses rejects
// its callers, who leave the messages unacknowledged. After each commit the bus carries the new seq range per
// cluster (never the rows).
// A capture copy whose key the index holds (a redelivery: its drainer was killed between the commit and the
// acknowledgement) is skipped, and counts as committed: the unique key of each day partition with ON CONFLICT DO
// NOTHING, and a look into yesterday's partition for a redelivery across midnight (ADR 22, its addendum).
import type { Pool } from 'pg';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import { SQL_INDEX_CHANNEL, type IndexAppended } from './index-channel.ts';
import { makeIndexPartitions } from './partition-maintenance.ts';
import { storeMessages, type CapturedMessage, type StoredMessage } from './stored-message.ts';
import { logger } from '@/base/log/log.ts';

const indexLog = logger('sql');

/** Rows per INSERT: large enough to amortise the round trip, small enough to keep one statement short. */
const BATCH = 1_000;
/** How long a lone row may wait for company before it is written. */
const LINGER_MS = 20;
/** "no partition of relation found for row": the partition job has not run (or the clock passed midnight). */
const NO_PARTITION = '23514';

export interface IndexWriterDependencies {
  readonly pool: Pool;
  /** How many rows may wait in the buffer (sql.capture.buffer-size). */
  readonly capacity: () => number;
  readonly notify: (channel: string, payload: string) => Promise<void>;
  /** What the content policy is read through. */
  readonly governance: { readonly db: Database; readonly bus: DatabaseBus };
  readonly log?: (message: string) => void;
}

interface Queued {
  readonly message: CapturedMessage;
  readonly done: { resolve: () => void; reject: (error: Error) => void };
}

type Prepared =
  | { readonly batch: Queued[]; readonly stored: StoredMessage[]; readonly error?: undefined }
  | { readonly batch: Queued[]; readonly error: Error };

export class IndexWriter {
  private buffer: Queued[] = [];
  private readonly waitingForRoom: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private partitionsMade = false;
  private stopped = false;
  private skipped = 0;

  constructor(private readonly dependencies: IndexWriterDependencies) {}

  /** Capture copies skipped since the start because the index held their key already (redeliveries). */
  get redeliveriesSkipped(): number {
    return this.skipped;
  }

  /** Rows waiting to be written. */
  get buffered(): number {
    return this.buffer.length;
  }

  /**
   * Queues the rows; resolves when every one of them is committed, rejects when their batch failed (nothing of it
   * stored). Waits for room first when the buffer is full.
   */
  async accept(messages: readonly CapturedMessage[]): Promise<void> {
    this.refuseWhenStopped();
    if (messages.length === 0) return;
    // An oversized hand-over is let in alone on an empty buffer, so it never waits forever.
    while (this.buffer.length > 0 && this.buffer.length + messages.length > this.dependencies.capacity()) {
      await new Promise<void>((resolve) => this.waitingForRoom.push(resolve));
      this.refuseWhenStopped();
    }
    const committed = messages.map(
      (message) =>
        new Promise<void>((resolve, reject) => {
          this.buffer.push({ message, done: { resolve, reject } });
        }),
    );
    this.schedule(this.buffer.length >= BATCH ? 0 : LINGER_MS);
    await Promise.all(committed);
  }

  /** Writes everything queued; resolves when it is committed (failures reach the callers of `accept`). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing.then(() => this.drain());
    return this.writing;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.flush();
    for (const wake of this.waitingForRoom.splice(0)) wake();
  }

  private refuseWhenStopped(): void {
    if (this.stopped) throw new Error('the index writer is stopped');
  }

  private schedule(delayMs: number): void {
    if (this.timer && delayMs > 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delayMs);
    this.timer.unref();
  }

  private log(message: string): void {
    if (this.dependencies.log) this.dependencies.log(`[sql] ${message}`);
    else indexLog.error(message);
  }

  private wakeWaiters(): void {
    for (const wake of this.waitingForRoom.splice(0)) wake();
  }

  private take(): Queued[] {
    const batch = this.buffer.splice(0, BATCH);
    this.wakeWaiters();
    return batch;
  }

  /** Governs and seals a batch (CPU); never rejects: a failure travels with the batch to its callers. */
  private async prepare(batch: Queued[]): Promise<Prepared> {
    try {
      const messages = batch.map((queued) => queued.message);
      return { batch, stored: await storeMessages(this.dependencies.governance, messages) };
    } catch (error) {
      return { batch, error: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  /** The next batch is governed while the database inserts the current one. */
  private async drain(): Promise<void> {
    let next = this.buffer.length > 0 ? this.prepare(this.take()) : undefined;
    while (next) {
      const inserting = this.commit(await next);
      // Let the INSERT leave for the database before the next batch's CPU work starts.
      await new Promise((resolve) => setImmediate(resolve));
      next = this.buffer.length > 0 ? this.prepare(this.take()) : undefined;
      await inserting;
    }
  }

  private async commit(prepared: Prepared): Promise<void> {
    const { batch } = prepared;
    try {
      if (prepared.error) throw prepared.error;
      await this.write(
        batch.map((queued) => queued.message),
        prepared.stored,
      );
      for (const queued of batch) queued.done.resolve();
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.log(`writing ${String(batch.length)} index rows failed: ${failure.message}`);
      for (const queued of batch) queued.done.reject(failure);
    }
  }

  private async write(messages: readonly CapturedMessage[], stored: readonly StoredMessage[]): Promise<void> {
    if (!this.partitionsMade) await this.makePartitions();
    let appended: IndexAppended[];
    try {
      appended = await this.insert(messages, stored);
    } catch (error) {
      if ((error as { code?: string }).code !== NO_PARTITION) throw error;
      await this.makePartitions();
      appended = await this.insert(messages, stored);
    }
    // After the commit: readers find the rows the bus announces.
    for (const range of appended) {
      await this.dependencies
        .notify(SQL_INDEX_CHANNEL, JSON.stringify(range))
        .catch((error: unknown) => this.log(`notify: ${String(error)}`));
    }
  }

  private async makePartitions(): Promise<void> {
    await makeIndexPartitions((sql) => this.dependencies.pool.query(sql));
    this.partitionsMade = true;
  }

  private async insert(
    messages: readonly CapturedMessage[],
    stored: readonly StoredMessage[],
  ): Promise<IndexAppended[]> {
    const column = <T>(pick: (message: CapturedMessage) => T) => messages.map(pick);
    const storedColumn = <T>(pick: (one: StoredMessage) => T) => stored.map(pick);
    // The OR keeps the look into yesterday a probe of its key index per row (a subplan), never an anti-join that
    // could read the whole partition; today's partition answers through ON CONFLICT.
    const result = await this.dependencies.pool.query<{ seq: string; cluster_id: string }>(
      `INSERT INTO message_index (indexed_at, row_id, cluster_id, node_id, node_name, address, queue, message_id,
                                  message_time, priority, durable, expiration, correlation_id, reply_to, origin,
                                  subscription_id, properties, body, body_withheld, policy_version, redactions,
                                  sealed_cipher, sealed_key_id, capture_key)
       SELECT now(), v.row_id, v.cluster_id, v.node_id, v.node_name, v.address, v.queue, v.message_id, v.message_time,
              v.priority, v.durable, v.expiration, v.correlation_id, v.reply_to, v.origin, v.subscription_id,
              v.properties, v.body, v.body_withheld, v.policy_version, v.redactions, v.sealed_cipher, v.sealed_key_id,
              v.capture_key
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::timestamptz[], $9::int[], $10::boolean[], $11::timestamptz[], $12::text[], $13::text[],
                     $14::text[], $15::uuid[], $16::jsonb[], $17::jsonb[], $18::text[], $19::int[], $20::jsonb[],
                     $21::text[], $22::text[], $23::uuid[])
              WITH ORDINALITY AS v(row_id, cluster_id, node_id, node_name, address, queue, message_id, message_time,
                                   priority, durable, expiration, correlation_id, reply_to, origin, subscription_id,
                                   properties, body, body_withheld, policy_version, redactions, sealed_cipher,
                                   sealed_key_id, capture_key, ord)
        WHERE v.capture_key IS NULL
           OR NOT EXISTS (SELECT 1 FROM message_index held
                           WHERE held.capture_key = v.capture_key
                             AND held.indexed_at >= date_trunc('day', now(), 'UTC') - interval '1 day'
                             AND held.indexed_at < date_trunc('day', now(), 'UTC'))
        ORDER BY v.ord
           ON CONFLICT DO NOTHING
       RETURNING seq, cluster_id`,
      [
        storedColumn((one) => one.rowId),
        column((m) => m.clusterId),
        column((m) => m.nodeId),
        column((m) => m.node),
        column((m) => m.address),
        column((m) => m.queue),
        storedColumn((one) => one.messageId),
        column((m) => m.time),
        column((m) => m.priority),
        column((m) => m.durable),
        column((m) => m.expiration),
        storedColumn((one) => one.correlationId),
        storedColumn((one) => one.replyTo),
        column((m) => m.origin),
        column((m) => m.subscriptionId),
        storedColumn((one) => JSON.stringify(one.properties)),
        // A JSON null would be a body; SQL NULL is none.
        storedColumn((one) => (one.body === null ? null : JSON.stringify(one.body))),
        storedColumn((one) => one.bodyWithheld),
        storedColumn((one) => one.policyVersion),
        storedColumn((one) => JSON.stringify(one.redactions)),
        storedColumn((one) => one.sealed.cipher),
        storedColumn((one) => one.sealed.keyId),
        column((m) => m.captureKey ?? null),
      ],
    );
    const skipped = messages.length - result.rows.length;
    if (skipped > 0) {
      this.skipped += skipped;
      indexLog.debug(
        { skipped, total: this.skipped },
        `${String(skipped)} redelivered capture ${skipped === 1 ? 'copy' : 'copies'} already indexed, skipped`,
      );
    }
    const ranges = new Map<string, IndexAppended>();
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
  }
}
