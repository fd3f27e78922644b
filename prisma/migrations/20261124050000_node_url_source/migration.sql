-- clusters: how each node's management URL was found: given at registration, or a candidate (the seed's port on the
-- node's host, the seed's port offset) that the broker's NodeID confirmed, or not confirmed. Nodes discovered before
-- this column were guessed without that confirmation.
ALTER TABLE cluster_node ADD COLUMN url_source text NOT NULL DEFAULT 'given';
UPDATE cluster_node SET url_source = 'not-confirmed' WHERE discovered;
