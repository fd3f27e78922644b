// Makes yesterday's, today's and the next days' message_index partitions and drops those past the retention window.
// Used by the index-partitions job and by the index writer (at its first write, and again when a row finds no
// partition), so rows always have a home even before the job first runs.
import { createPartitionSql, dropExpiredPartitionsSql, partitionsAround } from './partitions.ts';

type Execute = (sql: string) => Promise<unknown>;

// Two instances making the same partition at once: the loser sees a duplicate, which is what it wanted anyway.
const ALREADY_THERE = new Set(['42P07', '23505']);

export async function makeIndexPartitions(execute: Execute, now: Date = new Date()): Promise<string[]> {
  const partitions = partitionsAround(now);
  for (const partition of partitions) {
    try {
      await execute(createPartitionSql(partition));
    } catch (error) {
      if (!ALREADY_THERE.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
  return partitions.map((partition) => partition.name);
}

/** Drops the partitions of days that ended before now − retention; answers the cutoff. */
export async function dropExpiredIndexPartitions(
  execute: Execute,
  retentionMs: number,
  now: Date = new Date(),
): Promise<Date> {
  const cutoff = new Date(now.getTime() - retentionMs);
  await execute(dropExpiredPartitionsSql(cutoff));
  return cutoff;
}
