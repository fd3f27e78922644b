-- Alerting lifecycle: an alert that fires again soon after it resolved is reopened and its flaps counted; every
-- transition (opened, fired, resolved, reopened, dropped, acknowledged, silenced, unsilenced) is kept in order in
-- alert_transition, the rows the `alerts` stream topic carries and replays; resolved alerts are found by time for
-- the flap window and the retention job.
ALTER TABLE "alert" ADD COLUMN "flap_count" INTEGER NOT NULL DEFAULT 0;
CREATE INDEX "alert_resolved_at_idx" ON "alert"("resolved_at");

CREATE TABLE "alert_transition" (
    "seq" BIGSERIAL NOT NULL,
    "alert_id" UUID NOT NULL,
    "cluster_id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "rule" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "transition" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_transition_pkey" PRIMARY KEY ("seq"),
    CONSTRAINT "alert_transition_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE
);
CREATE INDEX "alert_transition_cluster_id_seq_idx" ON "alert_transition"("cluster_id", "seq");
CREATE INDEX "alert_transition_at_idx" ON "alert_transition"("at");
