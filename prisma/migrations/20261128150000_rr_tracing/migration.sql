-- feature/rr: request-reply expectations (versioned) and correlations.
CREATE TABLE rr_expectation (
  cluster_id uuid NOT NULL,
  address text NOT NULL,
  reply_address text,
  expected_latency_ms integer NOT NULL,
  deadline_ms integer NOT NULL,
  version integer NOT NULL,
  updated_by text,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (cluster_id, address)
);

CREATE TABLE rr_expectation_revision (
  seq bigserial PRIMARY KEY,
  cluster_id uuid NOT NULL,
  address text NOT NULL,
  version integer NOT NULL,
  reply_address text,
  expected_latency_ms integer,
  deadline_ms integer,
  removed boolean NOT NULL DEFAULT false,
  actor text,
  at timestamptz(3) NOT NULL
);
CREATE INDEX rr_expectation_revision_cluster_id_address_version_idx ON rr_expectation_revision (cluster_id, address, version);

CREATE TABLE rr_event (
  cluster_id uuid NOT NULL,
  key_hash text NOT NULL,
  address text NOT NULL,
  reply_address text,
  pattern text NOT NULL,
  state text NOT NULL,
  feed text NOT NULL,
  node_id uuid NOT NULL,
  correlation_id text,
  message_id text,
  broker_message_id text,
  request_at timestamptz(3) NOT NULL,
  reply_at timestamptz(3),
  latency_ms integer,
  clock text NOT NULL,
  deadline_at timestamptz(3),
  deadline_source text,
  state_at timestamptz(3) NOT NULL,
  note text,
  headers jsonb,
  policy_version integer NOT NULL DEFAULT 0,
  redactions jsonb NOT NULL DEFAULT '[]',
  sealed_cipher text,
  sealed_key_id text,
  stored_at timestamptz(3) NOT NULL,
  PRIMARY KEY (cluster_id, key_hash)
);
CREATE INDEX rr_event_cluster_id_address_request_at_idx ON rr_event (cluster_id, address, request_at);
CREATE INDEX rr_event_cluster_id_state_state_at_idx ON rr_event (cluster_id, state, state_at);
CREATE INDEX rr_event_stored_at_idx ON rr_event (stored_at);
