// The stored verdicts (queue_verdict): the consumer-health evaluation of a whole cluster, written by the worker
// that scrapes it, and the fleet-wide reads over it (counts per cluster, the worst queues across clusters). The
// evaluation is the one the API and the screens use (consumerHealthOf); only its result is kept.
import type { Database } from '@/base/db/database.ts';
import type { QueueVerdictSource } from '@/modules/feature/queues/module.ts';
import { NEEDS_ATTENTION, VERDICTS, VERDICTS_WORST_FIRST, type Verdict } from '@/base/consumer-verdicts.ts';
import type { QueueHealth } from './consumer-health.ts';

/**
 * Stores one evaluation of the cluster (ADR 37), in one statement: a queue's row is written only when it is new or
 * its verdict or a figure differs (IS DISTINCT FROM), rows of queues no longer evaluated are deleted, and the rest
 * are left untouched (not rewritten, not even locked), so a row's evaluated_at says since when its verdict and
 * figures hold. The time of the evaluation itself goes to the cluster's one verdict_evaluation row.
 */
export async function storeVerdicts(
  db: Database,
  clusterId: string,
  items: readonly QueueHealth[],
  evaluatedAt: Date,
): Promise<void> {
  const column = <T>(pick: (item: QueueHealth) => T) => items.map(pick);
  await db.query(
    `WITH incoming AS (
       SELECT DISTINCT ON (queue_name, address, routing_type) *
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[], $8::float8[],
                     $9::float8[], $10::float8[], $11::int[], $12::bigint[]) WITH ORDINALITY
              AS i(address, queue_name, routing_type, verdict, severity, depth, depth_change, in_rate, out_rate,
                   consumers, delivering, position)
        ORDER BY queue_name, address, routing_type, position
     ), changed AS (
       UPDATE queue_verdict v
          SET verdict = i.verdict, severity = i.severity, depth = i.depth, depth_change = i.depth_change,
              in_rate = i.in_rate, out_rate = i.out_rate, consumers = i.consumers, delivering = i.delivering,
              evaluated_at = $13
         FROM incoming i
        WHERE v.cluster_id = $1 AND v.queue_name = i.queue_name AND v.address = i.address
          AND v.routing_type = i.routing_type
          AND (v.verdict, v.severity, v.depth, v.depth_change, v.in_rate, v.out_rate, v.consumers, v.delivering)
              IS DISTINCT FROM
              (i.verdict, i.severity, i.depth, i.depth_change, i.in_rate, i.out_rate, i.consumers, i.delivering)
     ), added AS (
       INSERT INTO queue_verdict (cluster_id, address, queue_name, routing_type, verdict, severity, depth,
                                  depth_change, in_rate, out_rate, consumers, delivering, evaluated_at)
       SELECT $1, address, queue_name, routing_type, verdict, severity, depth, depth_change, in_rate, out_rate,
              consumers, delivering, $13
         FROM incoming
       ON CONFLICT DO NOTHING
     ), gone AS (
       DELETE FROM queue_verdict v
        WHERE v.cluster_id = $1
          AND NOT EXISTS (SELECT 1 FROM incoming i WHERE i.queue_name = v.queue_name AND i.address = v.address
                                                     AND i.routing_type = v.routing_type)
     )
     INSERT INTO verdict_evaluation (cluster_id, evaluated_at) VALUES ($1, $13)
     ON CONFLICT (cluster_id) DO UPDATE SET evaluated_at = EXCLUDED.evaluated_at`,
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
}

/**
 * When the rows `v` were last judged: their cluster's last evaluation (verdict_evaluation), or the rows' own time
 * where no evaluation row is kept (rows written some other way); a row's evaluated_at is never later.
 */
const JUDGED_AT = `GREATEST((SELECT e.evaluated_at FROM verdict_evaluation e WHERE e.cluster_id = v.cluster_id),
                            v.evaluated_at)`;

export interface ClusterVerdicts {
  readonly counts: Record<Verdict, number>;
  /** The worst verdict any queue has, or null without queues. */
  readonly worst: Verdict | null;
  readonly evaluatedAt: string | null;
}

/**
 * Per cluster: how many queues have each verdict, the worst, and when they were last judged (the cluster's
 * verdict_evaluation; a row's own evaluated_at only says since when it holds, so never later). One statement.
 */
export async function verdictCountsOf(
  db: Database,
  clusterIds: readonly string[],
): Promise<Map<string, ClusterVerdicts>> {
  const rows = await db.query<{ cluster_id: string; verdict: Verdict; n: number; evaluated_at: Date }>(
    // Counted first: the cluster's evaluation row is read for the few counts, not for every queue's row.
    `SELECT v.cluster_id, v.verdict, v.n, ${JUDGED_AT} AS evaluated_at
       FROM (SELECT cluster_id, verdict, count(*)::int AS n, max(evaluated_at) AS evaluated_at
               FROM queue_verdict WHERE cluster_id = ANY($1::uuid[]) GROUP BY cluster_id, verdict) AS v`,
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
  evaluatedAt: JUDGED_AT,
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
  const where = 'v.cluster_id = ANY($1::uuid[]) AND v.verdict = ANY($2::text[])';
  const [rows, counted, evaluations] = await Promise.all([
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
      `SELECT * FROM queue_verdict v WHERE ${where}
        ORDER BY ${worstOrder(options.sort)}, queue_name, cluster_id
        LIMIT $3 OFFSET $4`,
      [clusterIds, verdicts, options.pageSize, (options.page - 1) * options.pageSize],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM queue_verdict v WHERE ${where}`, [clusterIds, verdicts]),
    // The clusters' times of judging, read apart: in the page's statement PostgreSQL would look one up for every
    // matching row, not only the page's (its LIMIT is a parameter).
    db.query<{ cluster_id: string; evaluated_at: Date }>(
      'SELECT cluster_id, evaluated_at FROM verdict_evaluation WHERE cluster_id = ANY($1::uuid[])',
      [clusterIds],
    ),
  ]);
  const judged = new Map(evaluations.map((row) => [row.cluster_id, row.evaluated_at.getTime()]));
  const judgedAt = (row: { cluster_id: string; evaluated_at: Date }) =>
    new Date(Math.max(row.evaluated_at.getTime(), judged.get(row.cluster_id) ?? 0)).toISOString();
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
      evaluatedAt: judgedAt(row),
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
