-- feature/events: a broker event's properties are stored masked by the content policy in force (with its version
-- and the redactions), and the original properties sealed in the vault, bound to the row's event_id, opened only
-- for clear access or to mask again under a newer policy. Rows stored before hold their originals in clear and no
-- seal: the events module's remask service rewrites them in batches, like any row of an older policy version.
ALTER TABLE "broker_event"
    ADD COLUMN "event_id" UUID,
    ADD COLUMN "policy_version" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "sealed_cipher" TEXT,
    ADD COLUMN "sealed_key_id" TEXT,
    ADD COLUMN "redactions" JSONB NOT NULL DEFAULT '[]';

CREATE INDEX "broker_event_policy_version_idx" ON "broker_event" ("policy_version");
CREATE INDEX "broker_event_unsealed_idx" ON "broker_event" ("seq") WHERE "sealed_cipher" IS NULL;
