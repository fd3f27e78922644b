// Which queues are dead-letter or expiry queues is read from the brokers' address settings by the writer
// (server/dead-letter-settings.ts); the readers see the kinds and whether the last read of a cluster worked.
export type DeadLetterKind = 'dead-letter' | 'expiry';

export interface DeadLetterSettingsStatus {
  /** When the addresses were last read in full; null: never. */
  readonly readAt: string | null;
  /** The last read worked: the marks are the brokers' settings as of readAt. */
  readonly ok: boolean;
  readonly error: string | null;
}

// The reason alone: the screens put it in their own sentence ("… have not been read yet (<reason>), so …").
const NOT_READ: DeadLetterSettingsStatus = {
  readAt: null,
  ok: false,
  error: 'the first read follows the first full sweep of the cluster',
};

/** The last settings read of each cluster named (a cluster never read answers NOT_READ). */
export async function deadLetterStatusesOf(
  db: { query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]> },
  clusterIds: readonly string[],
): Promise<Map<string, DeadLetterSettingsStatus>> {
  const rows = await db.query<{ cluster_id: string; read_at: Date | null; ok: boolean; error: string | null }>(
    'SELECT cluster_id, read_at, ok, error FROM scrape_dead_letter_read WHERE cluster_id = ANY($1::uuid[])',
    [clusterIds],
  );
  const statuses = new Map(clusterIds.map((clusterId) => [clusterId, NOT_READ]));
  for (const row of rows) {
    statuses.set(row.cluster_id, { readAt: row.read_at?.toISOString() ?? null, ok: row.ok, error: row.error });
  }
  return statuses;
}
