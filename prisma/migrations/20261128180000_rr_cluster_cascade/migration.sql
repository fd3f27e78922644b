-- feature/rr: a removed cluster takes its expectations, their history and its correlations with it, as it does the
-- other modules' rows (sql_subscription, alert_rule). Rows a removal already left behind go first.
DELETE FROM rr_expectation WHERE cluster_id NOT IN (SELECT id FROM cluster);
DELETE FROM rr_expectation_revision WHERE cluster_id NOT IN (SELECT id FROM cluster);
DELETE FROM rr_event WHERE cluster_id NOT IN (SELECT id FROM cluster);
ALTER TABLE rr_expectation ADD CONSTRAINT rr_expectation_cluster_id_fkey
  FOREIGN KEY (cluster_id) REFERENCES cluster(id) ON DELETE CASCADE;
ALTER TABLE rr_expectation_revision ADD CONSTRAINT rr_expectation_revision_cluster_id_fkey
  FOREIGN KEY (cluster_id) REFERENCES cluster(id) ON DELETE CASCADE;
ALTER TABLE rr_event ADD CONSTRAINT rr_event_cluster_id_fkey
  FOREIGN KEY (cluster_id) REFERENCES cluster(id) ON DELETE CASCADE;
