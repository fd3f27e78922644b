-- External identities: each account's current groups, group → role mappings and a default role per provider
-- (security kernel), and the OIDC cookie key (identity-oidc).

CREATE TABLE "identity_user_groups" (
    "user_id" UUID NOT NULL,
    "groups" TEXT[],
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "identity_user_groups_pkey" PRIMARY KEY ("user_id"),
    CONSTRAINT "identity_user_groups_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "flotilla_user"("id") ON DELETE CASCADE
);

CREATE TABLE "identity_group_mapping" (
    "id" UUID NOT NULL,
    "provider_id" TEXT NOT NULL,
    "group_name" TEXT NOT NULL,
    "role_id" UUID NOT NULL,
    "scope_kind" TEXT NOT NULL,
    "scope_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,

    CONSTRAINT "identity_group_mapping_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "identity_group_mapping_role_id_fkey" FOREIGN KEY ("role_id") REFERENCES "flotilla_role"("id") ON DELETE CASCADE,
    CONSTRAINT "identity_group_mapping_scope_check" CHECK (
        ("scope_kind" = 'GLOBAL' AND "scope_id" IS NULL)
        OR ("scope_kind" IN ('ENVIRONMENT', 'CLUSTER') AND "scope_id" IS NOT NULL))
);
CREATE INDEX "identity_group_mapping_provider_id_group_name_idx" ON "identity_group_mapping"("provider_id", "group_name");

CREATE TABLE "identity_provider_default_role" (
    "provider_id" TEXT NOT NULL,
    "role_id" UUID NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT,

    CONSTRAINT "identity_provider_default_role_pkey" PRIMARY KEY ("provider_id"),
    CONSTRAINT "identity_provider_default_role_role_id_fkey" FOREIGN KEY ("role_id") REFERENCES "flotilla_role"("id") ON DELETE CASCADE
);

CREATE TABLE "identity_oidc_secret" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "identity_oidc_secret_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "identity_oidc_secret_single_row" CHECK ("id" = 1)
);
