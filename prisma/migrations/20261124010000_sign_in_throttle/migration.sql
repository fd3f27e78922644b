-- security: the sign-in throttle's progressive delay and the count of refused attempts (audited once per lock).
-- Old user:/source: rows keep working; pair: rows appear with the first failure after the upgrade.
ALTER TABLE sign_in_throttle ADD COLUMN next_attempt_at TIMESTAMPTZ(3);
ALTER TABLE sign_in_throttle ADD COLUMN refused INTEGER NOT NULL DEFAULT 0;
