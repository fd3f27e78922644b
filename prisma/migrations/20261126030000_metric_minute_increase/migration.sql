-- platform/scrape: each minute of the rollup keeps what its counters rose by since the sample before it (a counter
-- that went down is a restart and counts from zero) and when that span began, so a window's rates are plain sums
-- over its minutes (consumer health reads them without window functions). Existing minutes get the rise within
-- the minute (their span starts at their first sample).
ALTER TABLE "metric_minute"
    ADD COLUMN "added_increase" BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN "acked_increase" BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN "span_start" TIMESTAMPTZ(3);

UPDATE "metric_minute"
   SET "added_increase" = CASE WHEN messages_added < first_messages_added THEN messages_added
                               ELSE messages_added - first_messages_added END,
       "acked_increase" = CASE WHEN messages_acked < first_messages_acked THEN messages_acked
                               ELSE messages_acked - first_messages_acked END,
       "span_start" = first_ts;
