-- platform/scrape: a node's totals over its queues at every persisted listing (internal queues left out): the
-- node's and the cluster's series without summing thousands of queue samples at read time. Rates are the sums of
-- the cells' smoothed rates (ADR 0011), so a queue created or deleted never reads as a counter reset. Small (one row
-- per node per listing); the retention job deletes what is older than scrape.metric-retention.
CREATE TABLE "node_metric_sample" (
    "node_id" UUID NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "cluster_id" UUID NOT NULL,
    "queues" INTEGER NOT NULL,
    "message_count" BIGINT NOT NULL,
    "consumer_count" BIGINT NOT NULL,
    "delivering_count" BIGINT NOT NULL,
    "in_rate" DOUBLE PRECISION,
    "out_rate" DOUBLE PRECISION,

    CONSTRAINT "node_metric_sample_pkey" PRIMARY KEY ("node_id", "ts"),
    CONSTRAINT "node_metric_sample_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "cluster_node"("id") ON DELETE CASCADE
);
CREATE INDEX "node_metric_sample_cluster_id_ts_idx" ON "node_metric_sample"("cluster_id", "ts");
