-- How often each cluster's alert rules were evaluated (issue 35: GET /metrics names alert evaluations). The worker
-- counts in memory and adds its counts here every few seconds (one row per cluster, a counter that only grows), so
-- any instance's /metrics can say it without asking the worker.
CREATE TABLE "alert_evaluation" (
    "cluster_id" UUID NOT NULL,
    "evaluations" BIGINT NOT NULL DEFAULT 0,
    "failures" BIGINT NOT NULL DEFAULT 0,
    "last_at" TIMESTAMPTZ(3),
    "last_ms" INTEGER,

    CONSTRAINT "alert_evaluation_pkey" PRIMARY KEY ("cluster_id"),
    CONSTRAINT "alert_evaluation_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE
);
