-- The queue grid fetches the cells of one page's queues by name within a cluster (docs/queues.md); the
-- (cluster_id, queue_name) index serves that and every read by cluster_id, so it replaces the cluster_id one.
CREATE INDEX "queue_snapshot_cluster_id_queue_name_idx" ON "queue_snapshot"("cluster_id", "queue_name");
DROP INDEX "queue_snapshot_cluster_id_idx";
