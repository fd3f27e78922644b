-- clusters: the logical nodes of a cluster, as other modules may read them (the queue grid). A primary and its
-- backup share the broker's NodeID and form one logical node; a node whose NodeID is not known yet stands alone.
-- The clusters module owns cluster_node; this view is the one shape of it other modules see.
CREATE VIEW cluster_logical_node AS
SELECT id AS node_id,
       cluster_id,
       broker_name,
       serving,
       coalesce(broker_node_id, 'node:' || id::text) AS logical_node
  FROM cluster_node;
