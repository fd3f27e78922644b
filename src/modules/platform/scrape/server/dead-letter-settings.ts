// Dead-letter and expiry queues from the brokers' own address settings (spec: never inferred from names). After each
// tier-C sweep of a cluster (the first one runs right after the first tier B, so a new cluster is covered at once),
// one serving node is asked getAddressSettingsAsJSON for every address the cluster's queues are on, in bulk POSTs,
// and the addresses its settings name as deadLetterAddress (DLA before Artemis 2.3x) and expiryAddress are kept per
// cluster. A queue is a dead-letter queue when its address is one of them (queue_total.dead_letter, kept by the
// totals refresh and re-marked here). A read that fails, or leaves any address unread, changes no address and no
// mark: it is recorded, so the grid says the marks could not be read, and nothing is guessed in their place.
import { lockInTransaction, type Queryable } from '@/base/advisory-lock.ts';
import { readAddressSettings, type ManagementClient } from '@/modules/platform/broker/index.ts';

/** Address settings asked per management POST. */
const SETTINGS_PER_POST = 500;

export interface DeadLetterAddresses {
  readonly deadLetter: readonly string[];
  readonly expiry: readonly string[];
}

export type DeadLetterRead =
  | { readonly ok: true; readonly asked: number; readonly addresses: DeadLetterAddresses }
  | { readonly ok: false; readonly asked: number; readonly error: string };

const named = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * The dead-letter and expiry addresses the settings of `addresses` name, read from one node in POSTs of
 * SETTINGS_PER_POST. Throws when a POST fails or any address's settings did not come back.
 */
export async function readDeadLetterAddresses(
  client: ManagementClient,
  addresses: readonly string[],
): Promise<DeadLetterAddresses> {
  const deadLetter = new Set<string>();
  const expiry = new Set<string>();
  let unread = 0;
  for (let start = 0; start < addresses.length; start += SETTINGS_PER_POST) {
    const chunk = addresses.slice(start, start + SETTINGS_PER_POST);
    const settings = await readAddressSettings(client, chunk);
    for (const address of chunk) {
      const values = settings.get(address);
      if (!values) {
        unread += 1;
        continue;
      }
      const dla = named(values.deadLetterAddress) ?? named(values.DLA);
      const expiryAddress = named(values.expiryAddress);
      if (dla) deadLetter.add(dla);
      if (expiryAddress) expiry.add(expiryAddress);
    }
  }
  if (unread > 0) {
    throw new Error(`the settings of ${unread} of ${addresses.length} addresses could not be read`);
  }
  return { deadLetter: [...deadLetter].sort(), expiry: [...expiry].sort() };
}

/** Every address the cluster's queues are on (what the settings read asks about). */
export async function queueAddressesOf(db: Queryable, clusterId: string): Promise<string[]> {
  const { rows } = await db.query<{ address: string }>(
    'SELECT DISTINCT address FROM queue_total WHERE cluster_id = $1 ORDER BY address',
    [clusterId],
  );
  return rows.map((row) => row.address);
}

/** The serving nodes of the cluster as the HA poll last saw them. */
export async function servingNodesOf(db: Queryable, clusterId: string): Promise<Set<string>> {
  const { rows } = await db.query<{ node_id: string }>(
    'SELECT node_id FROM cluster_logical_node WHERE cluster_id = $1 AND serving',
    [clusterId],
  );
  return new Set(rows.map((row) => row.node_id));
}

export interface DeadLetterChange {
  /** Queues whose dead-letter mark changed. */
  readonly marksChanged: number;
  /** The read's outcome differs from the last one's (worked, failed, or its error). */
  readonly statusChanged: boolean;
}

/**
 * Records a read (`client`: inside a transaction). A good read replaces the cluster's addresses and re-marks its
 * queues, under the totals refresh's lock so a refresh running at once never writes marks from the old set.
 */
export async function recordDeadLetterRead(
  client: Queryable,
  clusterId: string,
  read: DeadLetterRead,
  at: Date,
): Promise<DeadLetterChange> {
  await lockInTransaction(client, 'scrape.queue-total', clusterId);
  const before = await client.query<{ ok: boolean; error: string | null }>(
    'SELECT ok, error FROM scrape_dead_letter_read WHERE cluster_id = $1',
    [clusterId],
  );
  const error = read.ok ? null : read.error;
  await client.query(
    `INSERT INTO scrape_dead_letter_read (cluster_id, attempted_at, read_at, ok, error, addresses)
     VALUES ($1, $2, CASE WHEN $3 THEN $2::timestamptz END, $3, $4, $5)
     ON CONFLICT (cluster_id) DO UPDATE SET
       attempted_at = EXCLUDED.attempted_at,
       read_at = coalesce(EXCLUDED.read_at, scrape_dead_letter_read.read_at),
       ok = EXCLUDED.ok, error = EXCLUDED.error, addresses = EXCLUDED.addresses`,
    [clusterId, at, read.ok, error, read.asked],
  );
  const previous = before.rows[0];
  const statusChanged = previous?.ok !== read.ok || (previous.error ?? null) !== error;
  if (!read.ok) return { marksChanged: 0, statusChanged };
  await client.query('DELETE FROM scrape_dead_letter_address WHERE cluster_id = $1', [clusterId]);
  await client.query(
    `INSERT INTO scrape_dead_letter_address (cluster_id, address, kind)
     SELECT $1::uuid, address, 'dead-letter' FROM unnest($2::text[]) AS address
     UNION ALL
     SELECT $1::uuid, address, 'expiry' FROM unnest($3::text[]) AS address`,
    [clusterId, read.addresses.deadLetter, read.addresses.expiry],
  );
  const marked = await client.query(
    `UPDATE queue_total t SET dead_letter = NOT t.dead_letter
      WHERE t.cluster_id = $1
        AND t.dead_letter IS DISTINCT FROM EXISTS (
              SELECT 1 FROM scrape_dead_letter_address d WHERE d.cluster_id = $1 AND d.address = t.address)
     RETURNING 1`,
    [clusterId],
  );
  return { marksChanged: marked.rows.length, statusChanged };
}
