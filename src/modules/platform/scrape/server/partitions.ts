// metric_sample is range-partitioned by UTC day: child `metric_sample_pYYYYMMDD` holds [day 00:00, next day 00:00).
// Pure naming and planning here; partition-maintenance.ts runs the DDL.
const DAY_MS = 86_400_000;
const PREFIX = 'metric_sample_p';

export interface DayPartition {
  readonly name: string;
  readonly from: Date;
  readonly to: Date;
}

export function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export function partitionFor(date: Date): DayPartition {
  const from = startOfUtcDay(date);
  const stamp = from.toISOString().slice(0, 10).replaceAll('-', '');
  return { name: `${PREFIX}${stamp}`, from, to: new Date(from.getTime() + DAY_MS) };
}

/** Today's partition and the next `daysAhead` days'. */
export function partitionsAhead(now: Date, daysAhead: number): DayPartition[] {
  return Array.from({ length: daysAhead + 1 }, (_, day) => partitionFor(new Date(now.getTime() + day * DAY_MS)));
}

export const DAYS_AHEAD = 2;

/** DDL that makes one day's partition; harmless when it exists. */
export function createPartitionSql(partition: DayPartition): string {
  return `CREATE TABLE IF NOT EXISTS "${partition.name}" PARTITION OF metric_sample FOR VALUES FROM ('${partition.from.toISOString()}') TO ('${partition.to.toISOString()}')`;
}

/**
 * One statement that drops every day partition whose day ended at or before the cutoff. The listing happens in
 * the database (pg_inherits), so partitions missed while no worker ran are found too.
 */
export function dropExpiredPartitionsSql(cutoff: Date): string {
  return `DO $$
DECLARE child text;
BEGIN
  FOR child IN
    SELECT c.relname FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relname = 'metric_sample' AND c.relname ~ '^${PREFIX}[0-9]{8}$'
       AND ((to_date(substr(c.relname, ${PREFIX.length + 1}), 'YYYYMMDD') + 1)::timestamp AT TIME ZONE 'UTC')
           <= '${cutoff.toISOString()}'::timestamptz
  LOOP
    EXECUTE format('DROP TABLE %I', child);
  END LOOP;
END $$`;
}
