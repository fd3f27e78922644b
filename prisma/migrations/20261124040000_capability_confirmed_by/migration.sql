-- clusters: every capability verdict says how it was last confirmed (registration, rediscovery, the worker's
-- native subscription, the scrape's management reads, the scheduled recheck); checked_at is when.
ALTER TABLE cluster_capability ADD COLUMN confirmed_by text NOT NULL DEFAULT 'registration';
