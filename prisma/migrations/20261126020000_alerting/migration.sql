-- Alerting: rules, alerts (pending → firing → resolved), notification channels with their configuration sealed by
-- the vault, and the delivery log (one row per alert, channel and event; a test send has no alert).
CREATE TABLE "alert_rule" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "condition_kind" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "cluster_id" UUID,
    "environment_id" UUID,
    "pattern" TEXT,
    "severity" TEXT NOT NULL,
    "for_seconds" INTEGER NOT NULL DEFAULT 0,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "channel_ids" UUID[] NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "built_in" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_rule_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_rule_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE,
    CONSTRAINT "alert_rule_severity_check" CHECK ("severity" IN ('info', 'warning', 'critical'))
);
CREATE INDEX "alert_rule_cluster_id_idx" ON "alert_rule"("cluster_id");
-- A built-in rule is installed once per cluster, whichever worker hears the registration.
CREATE UNIQUE INDEX "alert_rule_built_in_cluster_key" ON "alert_rule"("built_in", "cluster_id") WHERE "built_in" IS NOT NULL;

CREATE TABLE "alert" (
    "id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "cluster_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "fired_at" TIMESTAMPTZ(3),
    "resolved_at" TIMESTAMPTZ(3),
    "acknowledged_by" TEXT,
    "acknowledged_at" TIMESTAMPTZ(3),
    "silenced_until" TIMESTAMPTZ(3),
    "silence_reason" TEXT,
    "last_value" DOUBLE PRECISION,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rule"("id") ON DELETE CASCADE,
    CONSTRAINT "alert_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE,
    CONSTRAINT "alert_state_check" CHECK ("state" IN ('pending', 'firing', 'resolved'))
);
CREATE INDEX "alert_rule_id_cluster_id_subject_idx" ON "alert"("rule_id", "cluster_id", "subject");
CREATE INDEX "alert_state_idx" ON "alert"("state");
-- At most one open (pending or firing) alert per rule, cluster and subject.
CREATE UNIQUE INDEX "alert_open_key" ON "alert"("rule_id", "cluster_id", "subject") WHERE "state" <> 'resolved';

CREATE TABLE "alert_channel" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "config_cipher" TEXT NOT NULL,
    "config_key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_channel_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_channel_kind_check" CHECK ("kind" IN ('webhook', 'slack', 'email'))
);
CREATE UNIQUE INDEX "alert_channel_name_key" ON "alert_channel"("name");

CREATE TABLE "alert_delivery" (
    "id" UUID NOT NULL,
    "alert_id" UUID,
    "channel_id" UUID NOT NULL,
    "event" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "response" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "next_attempt_at" TIMESTAMPTZ(3),

    CONSTRAINT "alert_delivery_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_delivery_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alert"("id") ON DELETE CASCADE,
    CONSTRAINT "alert_delivery_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "alert_channel"("id") ON DELETE CASCADE,
    CONSTRAINT "alert_delivery_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed'))
);
CREATE INDEX "alert_delivery_alert_id_idx" ON "alert_delivery"("alert_id");
CREATE INDEX "alert_delivery_status_next_attempt_at_idx" ON "alert_delivery"("status", "next_attempt_at");
