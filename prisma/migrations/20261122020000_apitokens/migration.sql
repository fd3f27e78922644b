-- API tokens: hashed personal tokens acting as their owner.
CREATE TABLE "api_token" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_token_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_token_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "flotilla_user"("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX "api_token_token_hash_key" ON "api_token"("token_hash");
CREATE INDEX "api_token_user_id_idx" ON "api_token"("user_id");
-- A user's token names are unique, so audit rows naming a token stay unambiguous.
CREATE UNIQUE INDEX "api_token_user_id_name_key" ON "api_token"("user_id", "name");
