-- feature/metrics: when each cluster's consumer health was last judged (ADR 36). The verdict refresher no longer
-- rewrites every queue_verdict row of the cluster once a minute: it writes only the rows whose verdict or figures
-- changed, so a row's evaluated_at now says since when its verdict and figures hold, and the cluster's last
-- evaluation is kept here, one small row per cluster. Seeded from the rows already stored.
CREATE TABLE "verdict_evaluation" (
    "cluster_id" UUID NOT NULL,
    "evaluated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "verdict_evaluation_pkey" PRIMARY KEY ("cluster_id"),
    CONSTRAINT "verdict_evaluation_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE
);
INSERT INTO "verdict_evaluation" ("cluster_id", "evaluated_at")
SELECT "cluster_id", max("evaluated_at") FROM "queue_verdict" GROUP BY "cluster_id";
