-- feature/plugins: plugins, their uploaded archives, and each instance's unclean-boot count for safe mode. A
-- plugin's own tables live in its own schema plugin_<id>, made when it is first activated (never here).
CREATE TABLE plugin (
  id TEXT NOT NULL,
  state TEXT NOT NULL,
  version TEXT NOT NULL,
  previous_version TEXT,
  last_error TEXT,
  settings JSONB NOT NULL DEFAULT '{}',
  db_password JSONB,
  updated_by TEXT NOT NULL,
  updated_at TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT plugin_pkey PRIMARY KEY (id)
);

CREATE TABLE plugin_archive (
  plugin_id TEXT NOT NULL,
  version TEXT NOT NULL,
  archive BYTEA NOT NULL,
  sha256 TEXT NOT NULL,
  manifest JSONB NOT NULL,
  uploaded_by TEXT NOT NULL,
  uploaded_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT plugin_archive_pkey PRIMARY KEY (plugin_id, version)
);

CREATE TABLE plugin_boot (
  instance_id TEXT NOT NULL,
  unclean_boots INTEGER NOT NULL DEFAULT 0,
  running BOOLEAN NOT NULL DEFAULT false,
  safe_mode BOOLEAN NOT NULL DEFAULT false,
  safe_mode_since TIMESTAMPTZ(3),
  updated_at TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT plugin_boot_pkey PRIMARY KEY (instance_id)
);

CREATE TABLE plugin_migration (
  plugin_id TEXT NOT NULL,
  name TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  applied_at TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT plugin_migration_pkey PRIMARY KEY (plugin_id, name)
);
