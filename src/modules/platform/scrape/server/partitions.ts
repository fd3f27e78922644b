// metric_sample and metric_minute are range-partitioned by UTC day: child `<table>_pYYYYMMDD` holds [day 00:00,
// next day 00:00). Pure naming and planning here; partition-maintenance.ts runs the DDL.
const DAY_MS = 86_400_000;

/** The day-partitioned tables: the raw samples and their per-minute rollup (ADR 12). */
export const METRIC_TABLES = ['metric_sample', 'metric_minute'] as const;
export type MetricTable = (typeof METRIC_TABLES)[number];

export interface DayPartition {
  readonly parent: MetricTable;
  readonly name: string;
  readonly from: Date;
  readonly to: Date;
}

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export function partitionFor(date: Date, parent: MetricTable = 'metric_sample'): DayPartition {
  const from = startOfUtcDay(date);
  const stamp = from.toISOString().slice(0, 10).replaceAll('-', '');
  return { parent, name: `${parent}_p${stamp}`, from, to: new Date(from.getTime() + DAY_MS) };
}

/** Today's partitions and the next `daysAhead` days', of every metric table. */
export function partitionsAhead(now: Date, daysAhead: number): DayPartition[] {
  return METRIC_TABLES.flatMap((parent) =>
    Array.from({ length: daysAhead + 1 }, (_, day) => partitionFor(new Date(now.getTime() + day * DAY_MS), parent)),
  );
}

export const DAYS_AHEAD = 2;

/** DDL that makes one day's partition; harmless when it exists. */
export function createPartitionSql(partition: DayPartition): string {
  return `CREATE TABLE IF NOT EXISTS "${partition.name}" PARTITION OF ${partition.parent} FOR VALUES FROM ('${partition.from.toISOString()}') TO ('${partition.to.toISOString()}')`;
}

/**
 * One statement that drops every day partition (of every metric table) whose day ended at or before the cutoff.
 * The listing happens in the database (pg_inherits), so partitions missed while no worker ran are found too.
 */
export function dropExpiredPartitionsSql(cutoff: Date): string {
  return `DO $$
DECLARE child text;
BEGIN
  FOR child IN
    SELECT c.relname FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relname IN (${METRIC_TABLES.map((table) => `'${table}'`).join(', ')})
       AND c.relname ~ '^(${METRIC_TABLES.join('|')})_p[0-9]{8}$'
       AND ((to_date(right(c.relname, 8), 'YYYYMMDD') + 1)::timestamp AT TIME ZONE 'UTC')
           <= '${cutoff.toISOString()}'::timestamptz
  LOOP
    EXECUTE format('DROP TABLE %I', child);
  END LOOP;
END $$`;
}
