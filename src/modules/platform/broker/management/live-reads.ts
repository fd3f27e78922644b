// Live-through reads of one node, each one bulk POST: a whole resource list (one exec of up to `maxRows` rows; the
// broker builds and sorts the whole collection for any page, so one big page costs it less than many small ones),
// the node's facts (identity, memory, disk, counts and its addresses with their paging state), and one address
// in detail (its row, the queues bound to it and the address settings in effect).
import { attributeText, listPagesOfKinds, type ListKind, type ListPage } from './broker-operations.ts';
import type { ManagementClient } from './management-client.ts';
import { ManagementError } from './management-error.ts';

export type LiveListKind = Exclude<ListKind, 'queues'>;

/**
 * Every row of each kind, up to `maxRows` a kind, in one POST (one exec per kind); each page's `total` says how
 * many the broker holds.
 */
export async function listEveryRow<Kind extends LiveListKind>(
  client: ManagementClient,
  kinds: readonly Kind[],
  maxRows: number,
): Promise<Record<Kind, ListPage>> {
  const pages = await listPagesOfKinds(
    client,
    kinds.map((kind) => ({ kind, query: { page: 1, pageSize: maxRows } })),
  );
  return Object.fromEntries(kinds.map((kind, index) => [kind, pages[index] ?? { rows: [], total: 0 }])) as Record<
    Kind,
    ListPage
  >;
}

const FACT_ATTRIBUTES = [
  'Name',
  'Version',
  'NodeID',
  'UptimeMillis',
  'AddressMemoryUsage',
  'GlobalMaxSize',
  'AddressMemoryUsagePercentage',
  'DiskStoreUsage',
  'MaxDiskUsage',
  'ConnectionCount',
  'SessionCount',
  'TotalConsumerCount',
  'AddressCount',
  'QueueCount',
  'JournalType',
  'PersistenceEnabled',
];

export interface RawNodeFacts {
  /** The broker's attributes as Jolokia rendered them (numbers, strings, booleans). */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** Address rows (every value a string), up to `maxAddresses`. */
  readonly addresses: ListPage;
}

const listOptions = (filter?: { field: string; operation: string; value: string }) =>
  JSON.stringify({ field: filter?.field ?? '', operation: filter?.operation ?? '', value: filter?.value ?? '' });

function parsePage(raw: unknown): ListPage {
  const parsed = JSON.parse(attributeText(raw)) as { data?: Array<Record<string, unknown>>; count?: number };
  return { rows: parsed.data ?? [], total: parsed.count ?? 0 };
}

/** Identity, memory, disk, counts and every address's paging state of one node, in one POST. */
export async function readNodeFacts(client: ManagementClient, maxAddresses: number): Promise<RawNodeFacts> {
  const mbean = await client.brokerObjectName();
  const [attributes, addresses] = await client.call([
    { type: 'read', mbean, attribute: FACT_ATTRIBUTES },
    {
      type: 'exec',
      mbean,
      operation: 'listAddresses(java.lang.String,int,int)',
      arguments: [listOptions(), 1, maxAddresses],
    },
  ]);
  if (!attributes?.ok) throw attributes?.error ?? new ManagementError('broker-error', 'no answer', client.nodeKey);
  if (!addresses?.ok) throw addresses?.error ?? new ManagementError('broker-error', 'no answer', client.nodeKey);
  return {
    attributes: attributes.value as Record<string, unknown>,
    addresses: parsePage(addresses.value),
  };
}

/** The address settings in effect for each address (camelCase keys as the broker sends them), in one POST. */
export async function readAddressSettings(
  client: ManagementClient,
  addresses: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const mbean = await client.brokerObjectName();
  const results = await client.call(
    addresses.map((address) => ({
      type: 'exec' as const,
      mbean,
      operation: 'getAddressSettingsAsJSON(java.lang.String)',
      arguments: [address],
    })),
  );
  const settings = new Map<string, Record<string, unknown>>();
  results.forEach((result, index) => {
    const address = addresses[index];
    if (result.ok && address !== undefined) {
      settings.set(address, JSON.parse(attributeText(result.value)) as Record<string, unknown>);
    }
  });
  return settings;
}

export interface RawAddressDetail {
  /** The address's row, absent when this node does not have it. */
  readonly address: Record<string, unknown> | undefined;
  /** Queue rows bound to the address (every value a string). */
  readonly queues: ListPage;
  readonly settings: Record<string, unknown>;
}

/** One address on one node: its row, its queues and the settings in effect, in one POST. */
export async function readAddressDetail(
  client: ManagementClient,
  address: string,
  maxQueues: number,
): Promise<RawAddressDetail> {
  const mbean = await client.brokerObjectName();
  const exact = { field: 'name', operation: 'EQUALS', value: address };
  const [row, queues, settings] = await client.call([
    {
      type: 'exec',
      mbean,
      operation: 'listAddresses(java.lang.String,int,int)',
      arguments: [listOptions(exact), 1, 1],
    },
    {
      type: 'exec',
      mbean,
      operation: 'listQueues(java.lang.String,int,int)',
      arguments: [listOptions({ field: 'address', operation: 'EQUALS', value: address }), 1, maxQueues],
    },
    { type: 'exec', mbean, operation: 'getAddressSettingsAsJSON(java.lang.String)', arguments: [address] },
  ]);
  for (const result of [row, queues, settings]) {
    if (!result) throw new ManagementError('broker-error', 'no answer', client.nodeKey);
    if (!result.ok) throw result.error;
  }
  const rows = row?.ok ? parsePage(row.value).rows : [];
  return {
    address: rows.find((candidate) => candidate.name === address),
    queues: queues?.ok ? parsePage(queues.value) : { rows: [], total: 0 },
    settings: settings?.ok ? (JSON.parse(attributeText(settings.value)) as Record<string, unknown>) : {},
  };
}
