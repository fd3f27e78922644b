-- feature/metrics: the last consumer-health verdict of every queue, written by the worker that scrapes the cluster
-- after its sweeps (the same evaluation as the API), so fleet-wide views (the fleet home, triage) read verdicts of
-- every cluster at once instead of evaluating each. Replaced as a whole per cluster.
CREATE TABLE "queue_verdict" (
    "cluster_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "queue_name" TEXT NOT NULL,
    "routing_type" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    -- Position on the severity ladder (0 = worst), so "worst first" is an index order.
    "severity" INTEGER NOT NULL,
    "depth" BIGINT NOT NULL,
    -- Depth at the end of the window minus at its start: how much the backlog grew (null: not known).
    "depth_change" DOUBLE PRECISION,
    "in_rate" DOUBLE PRECISION,
    "out_rate" DOUBLE PRECISION,
    "consumers" INTEGER NOT NULL,
    "delivering" BIGINT NOT NULL,
    "evaluated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "queue_verdict_pkey" PRIMARY KEY ("cluster_id", "queue_name", "address", "routing_type"),
    CONSTRAINT "queue_verdict_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE
);
CREATE INDEX "queue_verdict_severity_idx" ON "queue_verdict"("severity", "depth_change" DESC);
