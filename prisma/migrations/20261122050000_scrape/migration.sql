-- platform/scrape: the last listing row of every queue per node, the metric history (range-partitioned by day on
-- ts; partitions made ahead and dropped by the module's jobs) and the per-node per-tier sweep record for staleness.
CREATE TABLE "queue_snapshot" (
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "cluster_id" UUID NOT NULL,
    "node_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "queue_name" TEXT NOT NULL,
    "routing_type" TEXT NOT NULL,
    "message_count" BIGINT NOT NULL,
    "consumer_count" INTEGER NOT NULL,
    "delivering_count" BIGINT NOT NULL,
    "messages_added" BIGINT NOT NULL,
    "messages_acked" BIGINT NOT NULL,
    "messages_expired" BIGINT NOT NULL,
    "paused" BOOLEAN,
    "durable" BOOLEAN,
    "temporary" BOOLEAN,
    "internal" BOOLEAN,
    -- When the listing this row came from was requested (not persisted): tier C removes what is older.
    "scraped_at" TIMESTAMPTZ(3) NOT NULL,
    -- B or C: the tier whose listing last wrote the row.
    "seen_in" TEXT NOT NULL,

    CONSTRAINT "queue_snapshot_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "queue_snapshot_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE,
    CONSTRAINT "queue_snapshot_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "cluster_node"("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX "queue_snapshot_node_id_address_queue_name_routing_type_key"
    ON "queue_snapshot"("node_id", "address", "queue_name", "routing_type");
CREATE INDEX "queue_snapshot_cluster_id_idx" ON "queue_snapshot"("cluster_id");

-- No foreign key: a partitioned table's rows outlive their queue until the retention reaper drops the day.
CREATE TABLE "metric_sample" (
    "queue_id" BIGINT NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "message_count" BIGINT NOT NULL,
    "consumer_count" INTEGER NOT NULL,
    "delivering_count" BIGINT NOT NULL,
    "messages_added" BIGINT NOT NULL,
    "messages_acked" BIGINT NOT NULL,
    "messages_expired" BIGINT NOT NULL,

    CONSTRAINT "metric_sample_pkey" PRIMARY KEY ("queue_id", "ts")
) PARTITION BY RANGE ("ts");

CREATE TABLE "scrape_sweep" (
    "node_id" UUID NOT NULL,
    "tier" TEXT NOT NULL,
    "cluster_id" UUID NOT NULL,
    "instance_id" TEXT NOT NULL,
    "last_started_at" TIMESTAMPTZ(3),
    "last_completed_at" TIMESTAMPTZ(3),
    "last_failed_at" TIMESTAMPTZ(3),
    "last_duration_ms" INTEGER,
    "last_error" TEXT,
    "rows_persisted" INTEGER NOT NULL DEFAULT 0,
    -- Rows the broker said the listing has (tiers B and C): tier C sizes its one POST from it.
    "listed_total" INTEGER,
    "limiter_wait_ms" INTEGER,
    -- The tier's interval when the sweep ran: staleness is judged against it by any process.
    "interval_ms" INTEGER NOT NULL,

    CONSTRAINT "scrape_sweep_pkey" PRIMARY KEY ("node_id", "tier"),
    CONSTRAINT "scrape_sweep_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE,
    CONSTRAINT "scrape_sweep_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "cluster_node"("id") ON DELETE CASCADE
);
CREATE INDEX "scrape_sweep_cluster_id_idx" ON "scrape_sweep"("cluster_id");
