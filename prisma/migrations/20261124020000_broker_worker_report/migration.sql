-- broker: the worker's report of what it holds of the brokers, read by the web process's `brokers` health.
CREATE TABLE broker_worker_report (
    instance_id TEXT NOT NULL PRIMARY KEY,
    reported_at TIMESTAMPTZ(3) NOT NULL,
    interval_ms INTEGER NOT NULL,
    nodes JSONB NOT NULL,
    native_connections JSONB NOT NULL
);
