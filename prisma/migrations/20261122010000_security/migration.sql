-- Security kernel: users, roles, scoped grants, sessions, sign-in throttle.

CREATE TABLE "flotilla_user" (
    "id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "display_name" TEXT,
    "email" TEXT,
    "provider_id" TEXT NOT NULL,
    "external_subject" TEXT,
    "password_hash" TEXT,
    "must_change_password" BOOLEAN NOT NULL DEFAULT false,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" TIMESTAMPTZ(3),

    CONSTRAINT "flotilla_user_pkey" PRIMARY KEY ("id")
);
-- Usernames are unique per provider regardless of case; an external subject names one account per provider.
CREATE UNIQUE INDEX "flotilla_user_provider_username_key" ON "flotilla_user"("provider_id", lower("username"));
CREATE UNIQUE INDEX "flotilla_user_provider_subject_key" ON "flotilla_user"("provider_id", "external_subject")
    WHERE "external_subject" IS NOT NULL;

CREATE TABLE "flotilla_role" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "built_in" BOOLEAN NOT NULL DEFAULT false,
    "permissions" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "flotilla_role_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "flotilla_role_name_key" ON "flotilla_role"("name");

CREATE TABLE "flotilla_grant" (
    "id" UUID NOT NULL,
    "role_id" UUID NOT NULL,
    "principal" TEXT NOT NULL,
    "user_id" UUID,
    "provider_id" TEXT,
    "group_name" TEXT,
    "scope_kind" TEXT NOT NULL,
    "scope_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,

    CONSTRAINT "flotilla_grant_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "flotilla_grant_role_id_fkey" FOREIGN KEY ("role_id") REFERENCES "flotilla_role"("id") ON DELETE CASCADE,
    CONSTRAINT "flotilla_grant_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "flotilla_user"("id") ON DELETE CASCADE,
    CONSTRAINT "flotilla_grant_principal_check" CHECK (
        ("principal" = 'USER' AND "user_id" IS NOT NULL AND "group_name" IS NULL)
        OR ("principal" = 'GROUP' AND "user_id" IS NULL AND "provider_id" IS NOT NULL AND "group_name" IS NOT NULL)),
    CONSTRAINT "flotilla_grant_scope_check" CHECK (
        ("scope_kind" = 'GLOBAL' AND "scope_id" IS NULL)
        OR ("scope_kind" IN ('ENVIRONMENT', 'CLUSTER') AND "scope_id" IS NOT NULL))
);
CREATE INDEX "flotilla_grant_user_id_idx" ON "flotilla_grant"("user_id");
CREATE INDEX "flotilla_grant_provider_id_group_name_idx" ON "flotilla_grant"("provider_id", "group_name");

CREATE TABLE "flotilla_session" (
    "id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "source_ip" TEXT,
    "user_agent" TEXT,

    CONSTRAINT "flotilla_session_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "flotilla_session_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "flotilla_user"("id") ON DELETE CASCADE
);
CREATE INDEX "flotilla_session_user_id_idx" ON "flotilla_session"("user_id");
CREATE INDEX "flotilla_session_expires_at_idx" ON "flotilla_session"("expires_at");

CREATE TABLE "sign_in_throttle" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "window_starts_at" TIMESTAMPTZ(3) NOT NULL,
    "locked_until" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_throttle_pkey" PRIMARY KEY ("key")
);
