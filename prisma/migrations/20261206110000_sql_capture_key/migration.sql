-- feature/sql: capture is exactly once across a kill -9 of the draining worker (issue 34, ADR 22's addendum). A
-- drainer killed between the commit of a copy's row and its acknowledgement leaves the copy on the capture queue, and
-- the next drainer receives it again. capture_key is what such a redelivered copy shares with its first delivery (a
-- UUID hashed from the cluster, the logical node and the broker's id of the original on that node; see
-- capture/captured-message.ts), and the index writer inserts with ON CONFLICT DO NOTHING on it.
--
-- A unique index on the partitioned table would have to hold indexed_at, which a redelivery does not share, so the
-- key is unique per day partition (each partition's own index, made with the partition: index/partitions.ts) and the
-- writer also skips a key held in yesterday's partition (a redelivery across midnight).
--
-- Rows indexed before this migration have no key (NULL: the broker's id was never kept), so none of them can break
-- the new indexes and nothing is deduplicated here: duplicates left by earlier kills stay. Telling them apart by what
-- the rows do hold (the message id, which senders reuse or leave empty) could delete distinct messages.
ALTER TABLE "message_index" ADD COLUMN "capture_key" UUID;

DO $$
DECLARE child text;
BEGIN
  FOR child IN
    SELECT c.relname FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relname = 'message_index' AND c.relname ~ '^message_index_p[0-9]{8}$'
  LOOP
    EXECUTE format('CREATE UNIQUE INDEX IF NOT EXISTS %I ON %I ("capture_key") WHERE "capture_key" IS NOT NULL',
                   child || '_capture_key', child);
  END LOOP;
END $$;
