// Which instance reconciles a cluster's HA state and holds its notification subscriptions. Tier-A completions
// reach the worker of every instance over the database bus, so without this two instances would both subscribe
// (and the events module would store every notification twice). A session-level advisory lock per cluster, on a
// connection kept for the purpose, decides; when the holder dies its session ends and the next tier-A pass of
// another instance takes the cluster over.
import type { Pool, PoolClient } from 'pg';

// One bigint key per cluster (the single-key lock form): the two-int form is the scrape's, one int per tier.
const lockKey = (clusterId: string) => `flotilla.clusters.ha:${clusterId}`;

export class ClusterOwnership {
  private client: PoolClient | undefined;
  private readonly owned = new Set<string>();

  /** `onLost` runs when the lock connection breaks: every lock it held is gone, so is every ownership. */
  constructor(
    private readonly pool: Pool,
    private readonly onLost: (clusterIds: readonly string[]) => void,
  ) {}

  /** True when this process owns the cluster (taking the lock when it is free). */
  async claim(clusterId: string): Promise<boolean> {
    if (this.owned.has(clusterId)) return true;
    const client = await this.connection();
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
      [lockKey(clusterId)],
    );
    if (rows[0]?.locked) this.owned.add(clusterId);
    return rows[0]?.locked === true;
  }

  isOwned(clusterId: string): boolean {
    return this.owned.has(clusterId);
  }

  ownedClusters(): string[] {
    return [...this.owned];
  }

  async release(clusterId: string): Promise<void> {
    if (!this.owned.delete(clusterId) || !this.client) return;
    await this.client
      .query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey(clusterId)])
      .catch(() => undefined);
  }

  /** Ends every ownership: the connection is destroyed rather than returned, so no lock outlives it. */
  close(): void {
    this.owned.clear();
    this.client?.release(true);
    this.client = undefined;
  }

  private async connection(): Promise<PoolClient> {
    if (this.client) return this.client;
    const client = await this.pool.connect();
    client.on('error', () => {
      if (this.client !== client) return;
      const lost = [...this.owned];
      this.owned.clear();
      this.client = undefined;
      client.release(true);
      this.onLost(lost);
    });
    this.client = client;
    return client;
  }
}
