-- Addresses a user signed in from: they keep their own (username, address) throttle key, and the username-wide
-- lock applies only to unfamiliar addresses (docs/security.md, "Throttle").
CREATE TABLE "sign_in_known_address" (
    "username" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "last_success_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sign_in_known_address_pkey" PRIMARY KEY ("username","address")
);
