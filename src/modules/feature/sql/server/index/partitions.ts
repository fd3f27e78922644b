// message_index is range-partitioned by UTC day on indexed_at: child `message_index_pYYYYMMDD` holds [day 00:00,
// next day 00:00). Pure naming and DDL here; partition-maintenance.ts runs it. (The same scheme as the scrape's
// metric tables, kept apart: modules do not share private files.)
const DAY_MS = 86_400_000;

const INDEX_TABLE = 'message_index';

/** Days after today whose partitions exist at every moment: a worker that stops for a day still has a home. */
const DAYS_AHEAD = 2;

export interface DayPartition {
  readonly name: string;
  readonly from: Date;
  readonly to: Date;
}

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export function partitionFor(date: Date): DayPartition {
  const from = startOfUtcDay(date);
  const stamp = from.toISOString().slice(0, 10).replaceAll('-', '');
  return { name: `${INDEX_TABLE}_p${stamp}`, from, to: new Date(from.getTime() + DAY_MS) };
}

/** Yesterday's (a row indexed just before midnight may commit after it), today's and the next days' partitions. */
export function partitionsAround(now: Date, daysAhead: number = DAYS_AHEAD): DayPartition[] {
  return Array.from({ length: daysAhead + 2 }, (_, index) =>
    partitionFor(new Date(now.getTime() + (index - 1) * DAY_MS)),
  );
}

/**
 * DDL that makes one day's partition with its unique capture key (a redelivered capture copy's row is skipped; a
 * unique index of the partitioned table would have to hold indexed_at, which a redelivery does not share); harmless
 * when they exist. One statement, so any client runs it. Names and bounds come from dates, never input.
 */
export function createPartitionSql(partition: DayPartition): string {
  return `DO $$ BEGIN
  CREATE TABLE IF NOT EXISTS "${partition.name}" PARTITION OF ${INDEX_TABLE} FOR VALUES FROM ('${partition.from.toISOString()}') TO ('${partition.to.toISOString()}');
  CREATE UNIQUE INDEX IF NOT EXISTS "${partition.name}_capture_key" ON "${partition.name}" ("capture_key") WHERE "capture_key" IS NOT NULL;
END $$`;
}

/**
 * One statement that drops every day partition whose day ended at or before the cutoff. The listing happens in the
 * database (pg_inherits), so partitions missed while no worker ran are found too.
 */
export function dropExpiredPartitionsSql(cutoff: Date): string {
  return `DO $$
DECLARE child text;
BEGIN
  FOR child IN
    SELECT c.relname FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relname = '${INDEX_TABLE}'
       AND c.relname ~ '^${INDEX_TABLE}_p[0-9]{8}$'
       AND ((to_date(right(c.relname, 8), 'YYYYMMDD') + 1)::timestamp AT TIME ZONE 'UTC')
           <= '${cutoff.toISOString()}'::timestamptz
  LOOP
    EXECUTE format('DROP TABLE %I', child);
  END LOOP;
END $$`;
}
