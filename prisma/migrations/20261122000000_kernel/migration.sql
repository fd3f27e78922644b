-- Kernel tables: settings, audit, job status.

CREATE TABLE "flotilla_setting" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "scope" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT,

    CONSTRAINT "flotilla_setting_pkey" PRIMARY KEY ("key"),
    CONSTRAINT "flotilla_setting_scope_check" CHECK ("scope" IN ('RUNTIME', 'STARTUP'))
);

CREATE TABLE "audit_event" (
    "id" UUID NOT NULL,
    "actor" TEXT NOT NULL,
    "user_id" TEXT,
    "source_ip" TEXT,
    "request_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "parameters" JSONB NOT NULL DEFAULT '{}',
    "dry_run" BOOLEAN NOT NULL DEFAULT false,
    "cluster_id" UUID,
    "cluster_name" TEXT,
    "outcome" TEXT NOT NULL,
    "node_detail" JSONB,
    "error" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "audit_event_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "audit_event_started_at_idx" ON "audit_event"("started_at" DESC);
CREATE INDEX "audit_event_actor_started_at_idx" ON "audit_event"("actor", "started_at" DESC);
CREATE INDEX "audit_event_action_started_at_idx" ON "audit_event"("action", "started_at" DESC);
CREATE INDEX "audit_event_cluster_id_started_at_idx" ON "audit_event"("cluster_id", "started_at" DESC);

CREATE TABLE "job_status" (
    "instance_id" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "module_id" TEXT NOT NULL,
    "schedule" TEXT NOT NULL,
    "interval_ms" INTEGER NOT NULL,
    "last_started_at" TIMESTAMPTZ(3),
    "last_finished_at" TIMESTAMPTZ(3),
    "last_duration_ms" INTEGER,
    "last_outcome" TEXT,
    "last_error" TEXT,
    "last_summary" TEXT,
    "last_completed_at" TIMESTAMPTZ(3),
    "next_run_at" TIMESTAMPTZ(3),
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "scheduled_since" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_status_pkey" PRIMARY KEY ("instance_id", "job_id")
);
