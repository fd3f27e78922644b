-- The queues whose names did not conform at the last scan, one row per cluster and queue (naming-policy.scan keeps it).
CREATE TABLE violation (
  cluster_id text,
  queue_name text,
  reason text,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cluster_id, queue_name)
);
