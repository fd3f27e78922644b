-- platform/scrape: the per-minute rollup of metric_sample (ADR 12), written by the persist step beside each sample:
-- per queue cell and minute the number of samples, the first and last sample's time, depth and in/out counters, the
-- last of the other counters,
-- the most consumers and the last in-delivery count. Long series and the consumer-health window read it instead of
-- every sample. Day-partitioned like metric_sample, made ahead and dropped by the same jobs.
CREATE TABLE "metric_minute" (
    "queue_id" BIGINT NOT NULL,
    "minute" TIMESTAMPTZ(3) NOT NULL,
    "samples" INTEGER NOT NULL,
    "first_ts" TIMESTAMPTZ(3) NOT NULL,
    "last_ts" TIMESTAMPTZ(3) NOT NULL,
    "first_message_count" BIGINT NOT NULL,
    -- The first sample's counters: a minute alone (a queue's first) still has an increase inside it.
    "first_messages_added" BIGINT NOT NULL,
    "first_messages_acked" BIGINT NOT NULL,
    "message_count" BIGINT NOT NULL,
    "consumer_count" INTEGER NOT NULL,
    "delivering_count" BIGINT NOT NULL,
    "messages_added" BIGINT NOT NULL,
    "messages_acked" BIGINT NOT NULL,
    "messages_expired" BIGINT NOT NULL,
    "messages_killed" BIGINT NOT NULL,

    CONSTRAINT "metric_minute_pkey" PRIMARY KEY ("queue_id", "minute")
) PARTITION BY RANGE ("minute");

-- The rollup of the samples already kept: a partition per day that has samples, then the minutes.
DO $$
DECLARE day date;
BEGIN
  FOR day IN SELECT DISTINCT (ts AT TIME ZONE 'UTC')::date FROM metric_sample LOOP
    EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF metric_minute FOR VALUES FROM (%L) TO (%L)',
                   'metric_minute_p' || to_char(day, 'YYYYMMDD'),
                   (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
  END LOOP;
END $$;

INSERT INTO metric_minute
SELECT queue_id, minute, count(*)::int, min(ts), max(ts),
       (array_agg(message_count ORDER BY ts))[1], (array_agg(messages_added ORDER BY ts))[1],
       (array_agg(messages_acked ORDER BY ts))[1], (array_agg(message_count ORDER BY ts DESC))[1],
       max(consumer_count), (array_agg(delivering_count ORDER BY ts DESC))[1],
       (array_agg(messages_added ORDER BY ts DESC))[1], (array_agg(messages_acked ORDER BY ts DESC))[1],
       (array_agg(messages_expired ORDER BY ts DESC))[1], (array_agg(messages_killed ORDER BY ts DESC))[1]
  FROM (SELECT *, date_bin('1 minute', ts, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS minute FROM metric_sample) AS s
 GROUP BY queue_id, minute;
