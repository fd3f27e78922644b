// Makes today's and the next days' metric_sample partitions and drops those past the retention window. Used by
// the two jobs and by the scrape service at start (so the first samples always have a partition).
import { createPartitionSql, DAYS_AHEAD, dropExpiredPartitionsSql, partitionsAhead } from './partitions.ts';

type Execute = (sql: string) => Promise<unknown>;

// Two instances making the same partition at once: the loser sees a duplicate, which is what it wanted anyway.
const ALREADY_THERE = new Set(['42P07', '23505']);

export async function makePartitionsAhead(execute: Execute, now: Date = new Date()): Promise<string[]> {
  const partitions = partitionsAhead(now, DAYS_AHEAD);
  for (const partition of partitions) {
    try {
      await execute(createPartitionSql(partition));
    } catch (error) {
      if (!ALREADY_THERE.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
  return partitions.map((partition) => partition.name);
}

export async function dropExpiredPartitions(
  execute: Execute,
  retentionMs: number,
  now: Date = new Date(),
): Promise<Date> {
  const cutoff = new Date(now.getTime() - retentionMs);
  await execute(dropExpiredPartitionsSql(cutoff));
  return cutoff;
}
