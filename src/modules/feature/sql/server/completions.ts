// What the editor completes: the cluster's address names (from the last sweep) and the property keys recent index
// rows carry. Keys are names, and names may carry content: they pass the content policy like any field.
import type { Database } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import { governFields } from '@/modules/platform/governance/index.ts';
import { readQueuesOnAddresses } from '@/modules/platform/scrape/read/index.ts';

const MAX_ADDRESSES = 2_000;
const RECENT_ROWS = 2_000;
const MAX_KEYS = 500;

export async function readCompletions(
  runtime: { readonly db: Database; readonly bus: DatabaseBus },
  clusterId: string,
): Promise<{ addresses: string[]; propertyKeys: string[] }> {
  const [queues, keys] = await Promise.all([
    readQueuesOnAddresses(runtime.db, { clusterId, addressRegex: '^.*$', limit: MAX_ADDRESSES * 4 }),
    runtime.db.query<{ key: string }>(
      `SELECT DISTINCT jsonb_object_keys(properties) AS key
         FROM (SELECT properties FROM message_index WHERE cluster_id = $1 ORDER BY seq DESC LIMIT ${String(RECENT_ROWS)}) recent
        LIMIT ${String(MAX_KEYS)}`,
      [clusterId],
    ),
  ]);
  const addresses = [...new Set(queues.queues.map((queue) => queue.address))]
    .filter((address) => !address.startsWith('flotilla.'))
    .sort()
    .slice(0, MAX_ADDRESSES);
  const names = [...addresses.map((name) => ({ name })), ...keys.map((row) => ({ name: row.key }))];
  const { rows } = await governFields(runtime, names, ['name'], { clear: false });
  const shown = rows.map((row) => row.name);
  return { addresses: shown.slice(0, addresses.length), propertyKeys: shown.slice(addresses.length).sort() };
}
