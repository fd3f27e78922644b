-- platform/scrape: per-queue totals kept by the persist step (ADR 0010), so that a grid page reads one row per
-- queue instead of grouping the whole cluster's cells: the same cost at 100,000 queues as at 1,000.
--
-- Each cell also keeps its rates: messages added, acknowledged and the depth change per second, smoothed over
-- about a minute (an exponentially weighted average across listings, whatever their spacing). A counter that went
-- down was reset (a restart, a failover): the new value counts as counted from zero, so no rate is negative.
ALTER TABLE "queue_snapshot"
    ADD COLUMN "in_rate" DOUBLE PRECISION,
    ADD COLUMN "out_rate" DOUBLE PRECISION,
    ADD COLUMN "depth_rate" DOUBLE PRECISION;

-- The smoothed rate after one more listing: `previous` rate, counter from `before` to `after` over `seconds`.
-- Values below a thousandth of a message per second are 0, so an idle queue's row settles and stops changing.
CREATE FUNCTION "scrape_smoothed_rate"(previous DOUBLE PRECISION, before BIGINT, after BIGINT, seconds DOUBLE PRECISION,
                                      allow_negative BOOLEAN DEFAULT FALSE)
RETURNS DOUBLE PRECISION LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN seconds IS NULL OR seconds <= 0 THEN previous
    -- Listings less than a second apart (overlapping tiers) say too little to start a rate from.
    WHEN previous IS NULL AND seconds < 1 THEN NULL
    ELSE (
      SELECT CASE WHEN abs(smoothed) < 0.001 THEN 0 ELSE smoothed END
        FROM (SELECT CASE WHEN previous IS NULL THEN instant
                          ELSE previous * exp(-seconds / 60.0) + (1 - exp(-seconds / 60.0)) * instant END AS smoothed
                FROM (SELECT CASE WHEN allow_negative THEN (after - before) / seconds
                                  WHEN after >= before THEN (after - before) / seconds
                                  ELSE after / seconds END AS instant) AS i) AS s)
  END
$$;

CREATE TABLE "queue_total" (
    "cluster_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "queue_name" TEXT NOT NULL,
    "routing_type" TEXT NOT NULL,
    "message_count" BIGINT NOT NULL,
    "consumer_count" BIGINT NOT NULL,
    "delivering_count" BIGINT NOT NULL,
    "messages_added" BIGINT NOT NULL,
    "messages_acked" BIGINT NOT NULL,
    "messages_expired" BIGINT NOT NULL,
    "in_rate" DOUBLE PRECISION,
    "out_rate" DOUBLE PRECISION,
    "depth_rate" DOUBLE PRECISION,
    -- Logical nodes listing the queue, and the cells counted (one per logical node: the serving member's).
    "nodes_present" INTEGER NOT NULL,
    "counted_nodes" UUID[] NOT NULL DEFAULT '{}',
    "paused" BOOLEAN NOT NULL,
    -- The broker's internal queues (store-and-forward) and Flotilla's own: hidden from the grid by default.
    "internal" BOOLEAN NOT NULL,
    -- Dead-letter and expiry queues, by Artemis's default names and prefixes (docs/queues.md).
    "dead_letter" BOOLEAN NOT NULL,
    "scraped_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "queue_total_pkey" PRIMARY KEY ("cluster_id", "queue_name", "address", "routing_type"),
    CONSTRAINT "queue_total_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE
);
-- The grid's default and most used orders within a cluster; others sort the cluster's rows (still one table).
CREATE INDEX "queue_total_cluster_id_message_count_idx" ON "queue_total"("cluster_id", "message_count");

-- Existing clusters get their totals from the cells already stored (counted as the grid counted them).
INSERT INTO "queue_total"
SELECT cluster_id, address, queue_name, routing_type,
       sum(message_count) FILTER (WHERE counted), sum(consumer_count) FILTER (WHERE counted),
       sum(delivering_count) FILTER (WHERE counted), sum(messages_added) FILTER (WHERE counted),
       sum(messages_acked) FILTER (WHERE counted), sum(messages_expired) FILTER (WHERE counted),
       NULL, NULL, NULL,
       count(*) FILTER (WHERE counted), array_agg(node_id) FILTER (WHERE counted),
       coalesce(bool_or(paused), false),
       coalesce(bool_or(internal), false) OR bool_or(address LIKE '$.artemis.internal.%'),
       bool_or(queue_name IN ('DLQ', 'ExpiryQueue') OR queue_name LIKE 'DLQ.%' OR queue_name LIKE 'EXP.%'),
       max(scraped_at) FILTER (WHERE counted)
  FROM (SELECT s.*, row_number() OVER (PARTITION BY s.cluster_id, s.address, s.queue_name, s.routing_type, n.logical_node
                                       ORDER BY n.serving DESC, s.scraped_at DESC) = 1 AS counted
          FROM queue_snapshot s JOIN cluster_logical_node n ON n.node_id = s.node_id) AS cells
 GROUP BY cluster_id, address, queue_name, routing_type;
