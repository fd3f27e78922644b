-- platform/clusters, HA: serving nodes, corroborated split-brain, and the worker's notification subscriptions.
ALTER TABLE "cluster" ADD COLUMN "split_brain_since" TIMESTAMPTZ(3);
ALTER TABLE "cluster_node" ADD COLUMN "serving" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "cluster_node" ADD COLUMN "split_brain_since" TIMESTAMPTZ(3);

CREATE TABLE "cluster_node_subscription" (
    "node_id" UUID NOT NULL,
    "cluster_id" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "reason" TEXT,
    "cause" TEXT,
    "snippet" TEXT,
    "since" TIMESTAMPTZ(3),
    "instance_id" TEXT NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cluster_node_subscription_pkey" PRIMARY KEY ("node_id"),
    CONSTRAINT "cluster_node_subscription_state_check" CHECK ("state" IN ('established', 'refused', 'unknown')),
    -- A removed node or cluster takes its subscription row with it.
    CONSTRAINT "cluster_node_subscription_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "cluster_node"("id") ON DELETE CASCADE,
    CONSTRAINT "cluster_node_subscription_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE
);
CREATE INDEX "cluster_node_subscription_cluster_id_idx" ON "cluster_node_subscription"("cluster_id");
