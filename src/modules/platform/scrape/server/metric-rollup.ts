// The per-minute rollup of metric_sample (ADR 12) rebuilt from the samples, for samples written without the
// persist step (seeded by a test or a benchmark, or restored from elsewhere), and the day partitions such samples
// need. The persist step keeps the rollup itself as it writes samples.
import { createPartitionSql, METRIC_TABLES, partitionFor } from './partitions.ts';

type Execute = (sql: string, params?: unknown[]) => Promise<unknown>;

/** The day partitions of every metric table for the days of these dates (harmless when they exist). */
export async function makeDayPartitions(execute: Execute, dates: readonly Date[]): Promise<void> {
  for (const date of dates) {
    for (const parent of METRIC_TABLES) await execute(createPartitionSql(partitionFor(date, parent)));
  }
}

/** Rebuilds the minutes of these queue cells (every cell when undefined) from their samples. */
export async function rollUpSamples(execute: Execute, queueIds?: readonly (string | bigint)[]): Promise<void> {
  const ids = queueIds?.map(String) ?? null;
  await execute('DELETE FROM metric_minute WHERE $1::bigint[] IS NULL OR queue_id = ANY($1::bigint[])', [ids]);
  await execute(
    `INSERT INTO metric_minute (queue_id, minute, samples, first_ts, last_ts, first_message_count,
                                first_messages_added, first_messages_acked, message_count, consumer_count,
                                delivering_count, messages_added, messages_acked, messages_expired, messages_killed,
                                added_increase, acked_increase, span_start)
     SELECT queue_id, minute, count(*)::int, min(ts), max(ts),
            (array_agg(message_count ORDER BY ts))[1], (array_agg(messages_added ORDER BY ts))[1],
            (array_agg(messages_acked ORDER BY ts))[1], (array_agg(message_count ORDER BY ts DESC))[1],
            max(consumer_count), (array_agg(delivering_count ORDER BY ts DESC))[1],
            (array_agg(messages_added ORDER BY ts DESC))[1], (array_agg(messages_acked ORDER BY ts DESC))[1],
            (array_agg(messages_expired ORDER BY ts DESC))[1], (array_agg(messages_killed ORDER BY ts DESC))[1],
            sum(added_rise), sum(acked_rise), min(coalesce(previous_ts, ts))
       FROM (SELECT *,
                    -- The rise since the sample before, as the persist step counts it (a restart from zero).
                    CASE WHEN previous_added IS NULL THEN 0 WHEN messages_added < previous_added THEN messages_added
                         ELSE messages_added - previous_added END AS added_rise,
                    CASE WHEN previous_acked IS NULL THEN 0 WHEN messages_acked < previous_acked THEN messages_acked
                         ELSE messages_acked - previous_acked END AS acked_rise
               FROM (SELECT *, date_bin('1 minute', ts, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS minute,
                            lag(ts) OVER w AS previous_ts, lag(messages_added) OVER w AS previous_added,
                            lag(messages_acked) OVER w AS previous_acked
                       FROM metric_sample WHERE $1::bigint[] IS NULL OR queue_id = ANY($1::bigint[])
                     WINDOW w AS (PARTITION BY queue_id ORDER BY ts)) AS ordered) AS s
      GROUP BY queue_id, minute`,
    [ids],
  );
}
