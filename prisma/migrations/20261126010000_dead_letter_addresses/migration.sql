-- platform/scrape: dead-letter and expiry queues are known from the brokers' own address settings, never from their
-- names. Tier C reads getAddressSettingsAsJSON for every address the cluster's queues are on (one serving node, bulk
-- POSTs) and keeps the dead-letter and expiry addresses it names; queue_total.dead_letter is true for a queue on one
-- of them. The last read's outcome is kept per cluster, so the grid can say when the marks could not be read.
CREATE TABLE "scrape_dead_letter_address" (
    "cluster_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    -- 'dead-letter' (an address's deadLetterAddress) or 'expiry' (its expiryAddress)
    "kind" TEXT NOT NULL,

    CONSTRAINT "scrape_dead_letter_address_pkey" PRIMARY KEY ("cluster_id", "address", "kind"),
    CONSTRAINT "scrape_dead_letter_address_kind_check" CHECK ("kind" IN ('dead-letter', 'expiry')),
    CONSTRAINT "scrape_dead_letter_address_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE
);

CREATE TABLE "scrape_dead_letter_read" (
    "cluster_id" UUID NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    -- When the addresses were last read in full (null: never); a failed read keeps the last good addresses.
    "read_at" TIMESTAMPTZ(3),
    "ok" BOOLEAN NOT NULL,
    "error" TEXT,
    "addresses" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "scrape_dead_letter_read_pkey" PRIMARY KEY ("cluster_id"),
    CONSTRAINT "scrape_dead_letter_read_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE
);

-- Nothing is marked by name any more: the marks return with the first settings read of each cluster.
UPDATE "queue_total" SET "dead_letter" = FALSE WHERE "dead_letter";

-- The fleet's dead-letter screen pages a cluster's marked queues: a few among many.
CREATE INDEX "queue_total_dead_letter_idx" ON "queue_total"("cluster_id", "message_count") WHERE "dead_letter";
