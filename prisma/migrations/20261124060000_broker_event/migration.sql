-- events: every broker notification, normalised, in arrival order (seq), and the per-cluster count of those the
-- ingest buffer dropped. No foreign key to cluster: the events module does not reach into the clusters module's
-- tables; the retention job trims by age.
CREATE TABLE broker_event (
  seq            bigserial PRIMARY KEY,
  cluster_id     uuid NOT NULL,
  node_id        uuid NOT NULL,
  logical_node   text NOT NULL,
  broker_name    text,
  kind           text NOT NULL,
  address        text,
  queue          text,
  consumer_id    text,
  session_id     text,
  connection_id  text,
  remote_address text,
  user_name      text,
  properties     jsonb NOT NULL,
  broker_time    timestamptz(3) NOT NULL,
  received_at    timestamptz(3) NOT NULL
);
CREATE INDEX broker_event_cluster_id_seq_idx ON broker_event (cluster_id, seq);
CREATE INDEX broker_event_cluster_id_broker_time_idx ON broker_event (cluster_id, broker_time);
CREATE INDEX broker_event_received_at_idx ON broker_event (received_at);

CREATE TABLE broker_event_dropped (
  cluster_id uuid PRIMARY KEY,
  dropped    bigint NOT NULL DEFAULT 0,
  last_at    timestamptz(3) NOT NULL
);
