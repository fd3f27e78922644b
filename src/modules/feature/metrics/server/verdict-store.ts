// The stored verdicts (queue_verdict): the consumer-health evaluation of a whole cluster, written by the worker
// that scrapes it, and the fleet-wide reads over it (counts per cluster, the worst queues across clusters). The
// evaluation is the one the API and the screens use (consumerHealthOf); only its result is kept.
import type { Database } from '@/base/db/database.ts';
import { inTransaction } from '@/base/db/transaction.ts';
import type { QueueVerdictSource } from '@/modules/feature/queues/module.ts';
import { NEEDS_ATTENTION, VERDICTS, VERDICTS_WORST_FIRST, type Verdict } from '@/base/consumer-verdicts.ts';
import type { QueueHealth } from './consumer-health.ts';

/** Replaces the cluster's stored verdicts with these, in one transaction. */
export async function storeVerdicts(
  db: Database,
  clusterId: string,
  items: readonly QueueHealth[],
  evaluatedAt: Date,
): Promise<void> {
  const column = <T>(pick: (item: QueueHealth) => T) => items.map(pick);
  await inTransaction(db.pool, async (client) => {
    await client.query('DELETE FROM queue_verdict WHERE cluster_id = $1', [clusterId]);
    if (items.length === 0) return;
    await client.query(
      `INSERT INTO queue_verdict (cluster_id, address, queue_name, routing_type, verdict, severity, depth,
                                  depth_change, in_rate, out_rate, consumers, delivering, evaluated_at)
       SELECT $1, * , $13 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[],
                                    $8::float8[], $9::float8[], $10::float8[], $11::int[], $12::bigint[])
       ON CONFLICT DO NOTHING`,
      [
        clusterId,
        column((item) => item.address),
        column((item) => item.queueName),
        column((item) => item.routingType),
        column((item) => item.verdict),
        column((item) => VERDICTS_WORST_FIRST.indexOf(item.verdict)),
        column((item) => item.evidence.depth),
        column((item) =>
          item.evidence.depthAtEnd !== null && item.evidence.depthAtStart !== null
            ? item.evidence.depthAtEnd - item.evidence.depthAtStart
            : null,
        ),
        column((item) => item.evidence.inRate),
        column((item) => item.evidence.outRate),
        column((item) => item.evidence.consumers),
        column((item) => item.evidence.delivering),
        evaluatedAt,
      ],
    );
  });
}

export interface ClusterVerdicts {
  readonly counts: Record<Verdict, number>;
  /** The worst verdict any queue has, or null without queues. */
  readonly worst: Verdict | null;
  readonly evaluatedAt: string | null;
}

/** Per cluster: how many queues have each verdict, the worst, and when they were judged. One statement. */
export async function verdictCountsOf(
  db: Database,
  clusterIds: readonly string[],
): Promise<Map<string, ClusterVerdicts>> {
  const rows = await db.query<{ cluster_id: string; verdict: Verdict; n: number; evaluated_at: Date }>(
    `SELECT cluster_id, verdict, count(*)::int AS n, max(evaluated_at) AS evaluated_at
       FROM queue_verdict WHERE cluster_id = ANY($1::uuid[]) GROUP BY cluster_id, verdict`,
    [clusterIds],
  );
  const result = new Map<string, ClusterVerdicts>();
  for (const clusterId of clusterIds) {
    const mine = rows.filter((row) => row.cluster_id === clusterId);
    const counts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<Verdict, number>;
    for (const row of mine) counts[row.verdict] = row.n;
    const worst = VERDICTS_WORST_FIRST.find((verdict) => counts[verdict] > 0) ?? null;
    const newest = mine.map((row) => row.evaluated_at.getTime()).sort((a, b) => b - a)[0];
    result.set(clusterId, { counts, worst, evaluatedAt: newest ? new Date(newest).toISOString() : null });
  }
  return result;
}

export interface RankedQueue {
  readonly clusterId: string;
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly verdict: Verdict;
  readonly depth: number;
  readonly depthChange: number | null;
  readonly inRate: number | null;
  readonly outRate: number | null;
  readonly consumers: number;
  readonly delivering: number;
  readonly evaluatedAt: string;
}

/**
 * The worst queues of the clusters named: by severity, then by how much the backlog grew over the window, then
 * by depth. `verdicts` narrows the list (default: every verdict that needs attention, the vocabulary's NEEDS_ATTENTION).
 */
const RANKING = 'severity, depth_change DESC NULLS LAST, depth DESC';
const WORST_ORDER: Record<string, string> = {
  depthChange: 'depth_change',
  depth: 'depth',
  inRate: 'in_rate',
  outRate: 'out_rate',
  consumers: 'consumers',
  queueName: 'queue_name',
  evaluatedAt: 'evaluated_at',
};

/** `severity` (the ranking) or a column, `-field` descending; missing figures last, then the ranking breaks ties. */
function worstOrder(sort = 'severity'): string {
  const descending = sort.startsWith('-');
  const field = sort.replace(/^-/, '');
  if (field === 'severity') return descending ? 'severity DESC, depth_change ASC NULLS LAST, depth ASC' : RANKING;
  const column = WORST_ORDER[field];
  if (!column) throw new Error(`unknown sort ${sort}`);
  return `${column} ${descending ? 'DESC' : 'ASC'} NULLS LAST, ${RANKING}`;
}

export async function worstQueuesOf(
  db: Database,
  clusterIds: readonly string[],
  options: { verdicts?: readonly Verdict[]; sort?: string; page: number; pageSize: number },
): Promise<{ items: RankedQueue[]; total: number }> {
  const verdicts = options.verdicts ?? NEEDS_ATTENTION;
  const where = 'cluster_id = ANY($1::uuid[]) AND verdict = ANY($2::text[])';
  const [rows, counted] = await Promise.all([
    db.query<{
      cluster_id: string;
      address: string;
      queue_name: string;
      routing_type: string;
      verdict: Verdict;
      depth: string;
      depth_change: number | null;
      in_rate: number | null;
      out_rate: number | null;
      consumers: number;
      delivering: string;
      evaluated_at: Date;
    }>(
      `SELECT * FROM queue_verdict WHERE ${where}
        ORDER BY ${worstOrder(options.sort)}, queue_name, cluster_id
        LIMIT $3 OFFSET $4`,
      [clusterIds, verdicts, options.pageSize, (options.page - 1) * options.pageSize],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM queue_verdict WHERE ${where}`, [clusterIds, verdicts]),
  ]);
  return {
    total: counted[0]?.n ?? 0,
    items: rows.map((row) => ({
      clusterId: row.cluster_id,
      address: row.address,
      queueName: row.queue_name,
      routingType: row.routing_type,
      verdict: row.verdict,
      depth: Number(row.depth),
      depthChange: row.depth_change,
      inRate: row.in_rate,
      outRate: row.out_rate,
      consumers: row.consumers,
      delivering: Number(row.delivering),
      evaluatedAt: row.evaluated_at.toISOString(),
    })),
  };
}

/** The queue grid's verdict column and filter read the stored verdicts (queues.verdict-source). */
export function queueVerdictSourceOf(): QueueVerdictSource {
  return {
    verdicts: VERDICTS,
    verdictsOf: (db, clusterId, filter) =>
      storedVerdictsOf(db, clusterId, {
        ...(filter.names ? { names: filter.names } : {}),
        ...(filter.verdicts ? { verdicts: filter.verdicts as Verdict[] } : {}),
      }),
  };
}

/** Stored verdicts of one cluster: of the queues named, or every queue with one of `verdicts`. Name → verdict. */
export async function storedVerdictsOf(
  db: Database,
  clusterId: string,
  filter: { readonly names?: readonly string[]; readonly verdicts?: readonly Verdict[] },
): Promise<Map<string, Verdict>> {
  const rows = await db.query<{ queue_name: string; verdict: Verdict }>(
    `SELECT queue_name, verdict FROM queue_verdict
      WHERE cluster_id = $1 AND ($2::text[] IS NULL OR queue_name = ANY($2::text[]))
        AND ($3::text[] IS NULL OR verdict = ANY($3::text[]))`,
    [clusterId, filter.names ?? null, filter.verdicts ?? null],
  );
  return new Map(rows.map((row) => [row.queue_name, row.verdict]));
}
