-- feature/brokerconfig: declared revisions, what was applied per node, apply runs, approvals, drift and bridge
-- credentials. A removed cluster takes them along.
CREATE TABLE config_revision (
  cluster_id UUID NOT NULL REFERENCES cluster(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  document JSONB NOT NULL,
  comment TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL,
  author TEXT NOT NULL,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT config_revision_pkey PRIMARY KEY (cluster_id, number)
);

CREATE TABLE config_applied_item (
  cluster_id UUID NOT NULL REFERENCES cluster(id) ON DELETE CASCADE,
  node_id UUID NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  revision INTEGER NOT NULL,
  applied_at TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT config_applied_item_pkey PRIMARY KEY (cluster_id, node_id, kind, key)
);

CREATE TABLE config_apply_run (
  id UUID NOT NULL,
  cluster_id UUID NOT NULL REFERENCES cluster(id) ON DELETE CASCADE,
  revision INTEGER NOT NULL,
  plan_hash TEXT NOT NULL,
  status TEXT NOT NULL,
  actor TEXT NOT NULL,
  approved_by TEXT,
  audit_id UUID,
  progress JSONB NOT NULL,
  error TEXT,
  started_at TIMESTAMPTZ(3) NOT NULL,
  finished_at TIMESTAMPTZ(3),
  CONSTRAINT config_apply_run_pkey PRIMARY KEY (id)
);
CREATE INDEX config_apply_run_cluster_id_started_at_idx ON config_apply_run(cluster_id, started_at);

CREATE TABLE config_approval (
  cluster_id UUID NOT NULL REFERENCES cluster(id) ON DELETE CASCADE,
  plan_hash TEXT NOT NULL,
  approved_by TEXT NOT NULL,
  approved_at TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT config_approval_pkey PRIMARY KEY (cluster_id, plan_hash)
);

CREATE TABLE config_drift (
  cluster_id UUID NOT NULL REFERENCES cluster(id) ON DELETE CASCADE,
  node_id UUID NOT NULL,
  node_name TEXT NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  state TEXT NOT NULL,
  fields JSONB NOT NULL,
  revision INTEGER NOT NULL,
  evaluated_at TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT config_drift_pkey PRIMARY KEY (cluster_id, node_id, kind, key)
);
CREATE INDEX config_drift_cluster_id_state_idx ON config_drift(cluster_id, state);

CREATE TABLE config_secret (
  cluster_id UUID NOT NULL REFERENCES cluster(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  cipher TEXT NOT NULL,
  key_id TEXT NOT NULL,
  updated_by TEXT NOT NULL,
  updated_at TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT config_secret_pkey PRIMARY KEY (cluster_id, name)
);
