// Writes what the correlators settle into rr_event: coalesced per correlation (a pair that completes within one flush
// is one row, written once), set-based (one statement per cluster and flush), then the `rr` stream signal after the
// commit. A final state is never overwritten: only an AWAITING_REPLY row changes.
import type { Pool } from 'pg';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import type { Correlation } from '../correlator/rr-types.ts';
import { correlationRows, type CorrelationRow } from './correlation-rows.ts';
import { logger } from '@/base/log/log.ts';

const rrLog = logger('rr');

const COLUMNS: ReadonlyArray<[keyof CorrelationRow, string]> = [
  ['cluster_id', 'uuid'],
  ['key_hash', 'text'],
  ['address', 'text'],
  ['reply_address', 'text'],
  ['pattern', 'text'],
  ['state', 'text'],
  ['feed', 'text'],
  ['node_id', 'uuid'],
  ['correlation_id', 'text'],
  ['message_id', 'text'],
  ['broker_message_id', 'text'],
  ['request_at', 'timestamptz'],
  ['reply_at', 'timestamptz'],
  ['latency_ms', 'integer'],
  ['clock', 'text'],
  ['deadline_at', 'timestamptz'],
  ['deadline_source', 'text'],
  ['state_at', 'timestamptz'],
  ['note', 'text'],
  ['headers', 'jsonb'],
  ['policy_version', 'integer'],
  ['redactions', 'jsonb'],
  ['sealed_cipher', 'text'],
  ['sealed_key_id', 'text'],
];

const names = COLUMNS.map(([name]) => name);
const UPSERT = `INSERT INTO rr_event (${names.join(', ')}, stored_at)
  SELECT ${names.map((name) => `r.${name}`).join(', ')}, clock_timestamp()
  FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})
  ON CONFLICT (cluster_id, key_hash) DO UPDATE SET
  ${names
    .filter((name) => name !== 'cluster_id' && name !== 'key_hash')
    .map((name) => `${name} = EXCLUDED.${name}`)
    .join(', ')}, stored_at = EXCLUDED.stored_at
  WHERE rr_event.state = 'AWAITING_REPLY'`;

export interface RrWriterDependencies {
  readonly pool: Pool;
  readonly governance: { readonly db: Database; readonly bus: DatabaseBus };
  readonly publishSignal: (topic: string, clusterId: string) => Promise<void>;
  /** Called after each commit with what it stored (the benchmark measures seen → stored with it). */
  readonly onStored?: (clusterId: string, correlations: readonly Correlation[], storedAt: number) => void;
  readonly log?: (message: string) => void;
}

export class RrWriter {
  private pending = new Map<string, Map<string, Correlation>>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly dependencies: RrWriterDependencies) {}

  /** Queues correlations of one cluster; the next flush writes the latest state of each. */
  offer(clusterId: string, correlations: readonly Correlation[]): void {
    if (correlations.length === 0) return;
    const byKey = this.pending.get(clusterId) ?? new Map<string, Correlation>();
    for (const correlation of correlations) byKey.set(correlation.key, correlation);
    this.pending.set(clusterId, byKey);
  }

  get pendingCount(): number {
    let count = 0;
    for (const byKey of this.pending.values()) count += byKey.size;
    return count;
  }

  /** Writes everything queued so far (flushes run one after another). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    for (const [clusterId, byKey] of batch) {
      const correlations = [...byKey.values()];
      try {
        const rows = await correlationRows(this.dependencies.governance, clusterId, correlations);
        await this.dependencies.pool.query(UPSERT, [JSON.stringify(rows)]);
        this.dependencies.onStored?.(clusterId, correlations, Date.now());
        await this.dependencies.publishSignal('rr', clusterId);
      } catch (error) {
        (this.dependencies.log ?? ((line: string) => rrLog.error(line)))(
          `[rr] storing ${correlations.length} correlations of cluster ${clusterId} failed (kept for the next flush): ${error instanceof Error ? error.message : String(error)}`,
        );
        // Nothing lost: back in the queue, unless a newer state of the same correlation came meanwhile.
        const current = this.pending.get(clusterId) ?? new Map<string, Correlation>();
        for (const correlation of correlations) {
          if (!current.has(correlation.key)) current.set(correlation.key, correlation);
        }
        this.pending.set(clusterId, current);
      }
    }
  }
}
