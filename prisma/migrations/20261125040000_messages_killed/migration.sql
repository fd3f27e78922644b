-- platform/scrape: messagesKilled (messages dead-lettered or dropped after their delivery attempts) is kept like the
-- other counters, per cell, per sample and in the totals, so the series has a killed rate beside in, out and expired.
ALTER TABLE "queue_snapshot" ADD COLUMN "messages_killed" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "metric_sample" ADD COLUMN "messages_killed" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "queue_total" ADD COLUMN "messages_killed" BIGINT NOT NULL DEFAULT 0;
