// Which instance scrapes a cluster: a session-level PostgreSQL advisory lock per cluster, all held on one dedicated
// connection of this worker. When the instance dies its connection closes, the locks go with it, and another
// instance's next ownership tick takes them. A lost connection means every lock is lost at once.
import pg from 'pg';

/** First key of the two-key advisory lock space: "scrape" (the jobs module locks with single bigint keys). */
const SCRAPE_LOCK_SPACE = 0x53_43_52; // 'SCR'

export class ClusterLocks {
  private client: pg.Client | undefined;
  private readonly held = new Set<string>();

  constructor(
    private readonly connectionString: string,
    private readonly onLost: () => void,
  ) {}

  owns(clusterId: string): boolean {
    return this.held.has(clusterId);
  }

  async tryAcquire(clusterId: string): Promise<boolean> {
    const client = await this.connection();
    const result = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS locked',
      [SCRAPE_LOCK_SPACE, clusterId],
    );
    const locked = result.rows[0]?.locked === true;
    if (locked) this.held.add(clusterId);
    return locked;
  }

  async release(clusterId: string): Promise<void> {
    if (!this.held.delete(clusterId) || !this.client) return;
    await this.client.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [SCRAPE_LOCK_SPACE, clusterId]);
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.held.clear();
    await client?.end().catch(() => undefined);
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'flotilla-scrape-locks',
    });
    client.on('error', (error) => {
      if (this.client !== client) return;
      console.error('[scrape] the lock connection failed; every cluster is given up:', error.message);
      this.client = undefined;
      this.held.clear();
      this.onLost();
    });
    await client.connect();
    this.client = client;
    return client;
  }
}
