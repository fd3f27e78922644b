-- platform/clusters: environments, clusters (password encrypted with AES-256-GCM), nodes and the capability ledger.
CREATE TABLE "environment" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environment_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "environment_name_key" ON "environment"("name");

CREATE TABLE "cluster" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "environment_id" UUID,
    "description" TEXT NOT NULL DEFAULT '',
    "username" TEXT NOT NULL,
    "password_cipher" TEXT NOT NULL,
    "password_key_id" TEXT NOT NULL,
    "tls" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cluster_pkey" PRIMARY KEY ("id"),
    -- An environment in use cannot be removed; its clusters must move or go first.
    CONSTRAINT "cluster_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environment"("id") ON DELETE RESTRICT
);
CREATE UNIQUE INDEX "cluster_name_key" ON "cluster"("name");
CREATE INDEX "cluster_environment_id_idx" ON "cluster"("environment_id");

CREATE TABLE "cluster_node" (
    "id" UUID NOT NULL,
    "cluster_id" UUID NOT NULL,
    "management_url" TEXT NOT NULL,
    "amqp_url" TEXT,
    "broker_name" TEXT,
    "broker_node_id" TEXT,
    "role" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "discovered" BOOLEAN NOT NULL DEFAULT false,
    "active" BOOLEAN,
    "started" BOOLEAN,
    "backup" BOOLEAN,
    "replica_sync" BOOLEAN,
    "ha_polled_at" TIMESTAMPTZ(3),
    "last_success_at" TIMESTAMPTZ(3),
    "last_failure_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cluster_node_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cluster_node_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX "cluster_node_cluster_id_management_url_key" ON "cluster_node"("cluster_id", "management_url");
CREATE INDEX "cluster_node_cluster_id_idx" ON "cluster_node"("cluster_id");

CREATE TABLE "cluster_capability" (
    "cluster_id" UUID NOT NULL,
    "capability" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '',
    "snippet" TEXT,
    "checked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cluster_capability_pkey" PRIMARY KEY ("cluster_id", "capability"),
    CONSTRAINT "cluster_capability_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE
);
