-- The deployment id that names this installation's capture taps on the brokers (ADR 22): made once, kept forever,
-- the same for every instance on this database, so a renamed host or a new instance never orphans a tap.
CREATE TABLE "sql_capture_deployment" (
    "singleton"     BOOLEAN NOT NULL DEFAULT true,
    "deployment_id" TEXT NOT NULL,
    "created_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "sql_capture_deployment_pkey" PRIMARY KEY ("singleton"),
    CONSTRAINT "sql_capture_deployment_one_row" CHECK ("singleton")
);
