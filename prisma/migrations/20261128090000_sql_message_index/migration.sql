-- feature/sql: the persisted message index (captured and sampled messages, content masked by the policy in force,
-- originals sealed in the vault bound to each row's row_id), range-partitioned by UTC day on indexed_at — when the
-- service indexed the row, so an old message sampled today lands in today's partition and retention is by indexing
-- day. Partitions message_index_pYYYYMMDD are made ahead and dropped past sql.index.retention by the module's job.
-- No foreign keys on the partitioned table: its rows outlive their cluster until the day's partition is dropped.
CREATE TABLE "message_index" (
    "seq" BIGINT GENERATED ALWAYS AS IDENTITY,
    "indexed_at" TIMESTAMPTZ(3) NOT NULL,
    -- The row's own key: the sealed original opens on this row only.
    "row_id" UUID NOT NULL,
    "cluster_id" UUID NOT NULL,
    "node_id" UUID NOT NULL,
    "node_name" TEXT NOT NULL,
    -- Byte-wise collation: a wildcard pattern's literal prefix becomes an index range (LIKE 'orders.%').
    "address" TEXT COLLATE "C" NOT NULL,
    -- The queue it was browsed from (sampling); null when captured (capture is address-scoped).
    "queue" TEXT,
    "message_id" TEXT NOT NULL,
    -- The message's timestamp, or when it was captured when it carried none.
    "message_time" TIMESTAMPTZ(3) NOT NULL,
    "priority" INTEGER,
    "durable" BOOLEAN,
    "expiration" TIMESTAMPTZ(3),
    "correlation_id" TEXT,
    "reply_to" TEXT,
    -- capture or sample
    "origin" TEXT NOT NULL,
    "subscription_id" UUID,
    -- Property name → value as the policy left it (a masked value is a string; a credential is gone).
    "properties" JSONB NOT NULL,
    -- A JSON body's governed value, a text body as a JSON string, or null (empty, or withheld: see body_withheld).
    "body" JSONB,
    "body_withheld" TEXT,
    "policy_version" INTEGER NOT NULL,
    "redactions" JSONB NOT NULL DEFAULT '[]',
    "sealed_cipher" TEXT NOT NULL,
    "sealed_key_id" TEXT NOT NULL,

    CONSTRAINT "message_index_pkey" PRIMARY KEY ("seq", "indexed_at"),
    CONSTRAINT "message_index_origin_check" CHECK ("origin" IN ('capture', 'sample'))
) PARTITION BY RANGE ("indexed_at");
CREATE INDEX "message_index_cluster_id_address_message_time_idx"
    ON "message_index" ("cluster_id", "address", "message_time");
-- A time range over many addresses (a wildcard pattern): the rows of the range, then the pattern and the rest of the
-- WHERE on them (rows are indexed in time order, so the range's heap pages sit together).
CREATE INDEX "message_index_cluster_id_message_time_idx" ON "message_index" ("cluster_id", "message_time");
-- A tail (Last-Event-ID) reads the rows after a seq through the primary key (seq first): no index of its own, one
-- index less to write per row.
CREATE INDEX "message_index_properties_idx" ON "message_index" USING GIN ("properties" jsonb_path_ops);
CREATE INDEX "message_index_policy_version_idx" ON "message_index" ("policy_version");

-- What the service indexes: a capture tap (reconciled on every live node) or a sampled queue.
CREATE TABLE "sql_subscription" (
    "id" UUID NOT NULL,
    "cluster_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    -- CAPTURE or SAMPLE
    "mode" TEXT NOT NULL,
    -- The queue a SAMPLE subscription browses; null for CAPTURE.
    "queue" TEXT,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- What the reconciler (or the sampler) last made of it: PENDING, ACTIVE or FAILED, and why.
    "state" TEXT NOT NULL DEFAULT 'PENDING',
    "last_error" TEXT,
    "state_changed_at" TIMESTAMPTZ(3),

    CONSTRAINT "sql_subscription_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sql_subscription_mode_check" CHECK (("mode" = 'CAPTURE' AND "queue" IS NULL) OR ("mode" = 'SAMPLE' AND "queue" IS NOT NULL)),
    CONSTRAINT "sql_subscription_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE,
    CONSTRAINT "sql_subscription_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "flotilla_user"("id") ON DELETE SET NULL
);
CREATE UNIQUE INDEX "sql_subscription_cluster_id_mode_address_queue_key"
    ON "sql_subscription" ("cluster_id", "mode", "address", COALESCE("queue", ''));
CREATE INDEX "sql_subscription_cluster_id_idx" ON "sql_subscription" ("cluster_id");

-- A user's saved queries; a shared one is listed to everyone who may query.
CREATE TABLE "sql_saved_query" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    -- live, index or tail
    "source" TEXT NOT NULL,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sql_saved_query_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sql_saved_query_source_check" CHECK ("source" IN ('live', 'index', 'tail')),
    CONSTRAINT "sql_saved_query_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "flotilla_user"("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX "sql_saved_query_owner_id_name_key" ON "sql_saved_query" ("owner_id", "name");
CREATE INDEX "sql_saved_query_shared_idx" ON "sql_saved_query" ("shared") WHERE "shared";

-- Yesterday's to the day after tomorrow's partitions, so rows have a home before the partition job first runs.
DO $$
DECLARE day date;
BEGIN
  FOR day IN SELECT generate_series((now() AT TIME ZONE 'UTC')::date - 1, (now() AT TIME ZONE 'UTC')::date + 2, interval '1 day')::date
  LOOP
    EXECUTE format(
      'CREATE TABLE IF NOT EXISTS %I PARTITION OF message_index FOR VALUES FROM (%L) TO (%L)',
      'message_index_p' || to_char(day, 'YYYYMMDD'),
      (day::timestamp AT TIME ZONE 'UTC'),
      ((day + 1)::timestamp AT TIME ZONE 'UTC'));
  END LOOP;
END $$;
