-- platform/governance: the content policy, one row per version (the highest is in force; every governed answer names
-- the version it was made with), and the findings: detections in fields no rule covers, counted per address,
-- location and detector, so an administrator can make a rule of them.
CREATE TABLE "governance_policy" (
    "version" INTEGER NOT NULL,
    -- { rules, detectors, actions } as policyBodySchema describes.
    "body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,

    CONSTRAINT "governance_policy_pkey" PRIMARY KEY ("version")
);

CREATE TABLE "classification_finding" (
    -- The address the content came from; '' when it came from no address (an audit parameter).
    "address" TEXT NOT NULL,
    -- The location with array indices as [*] (body$.orders.*.note, property:user, body/order/email).
    "location" TEXT NOT NULL,
    "detector" TEXT NOT NULL,
    "data_class" TEXT NOT NULL,
    "count" BIGINT NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "classification_finding_pkey" PRIMARY KEY ("address", "location", "detector")
);
CREATE INDEX "classification_finding_last_seen_idx" ON "classification_finding"("last_seen_at" DESC);
