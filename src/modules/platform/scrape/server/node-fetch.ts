// The one management POST per node per tick of each tier (network only; persisting is the caller's next step).
import {
  type ListPage,
  listResourcePages,
  type ManagementClient,
  ManagementError,
  readBrokerState,
} from '@/modules/platform/broker/index.ts';
import type { PolledHaState } from '@/modules/platform/clusters/index.ts';
import { queueRowsOf, tierCPageCount, type QueueRow } from './queue-rows.ts';

export async function fetchHaState(client: ManagementClient): Promise<PolledHaState> {
  const state = await readBrokerState(client);
  return {
    active: state.active,
    started: state.started,
    backup: state.backup,
    replicaSync: state.replicaSync,
    nodeId: state.nodeId,
    managementAddress: state.managementAddress,
    notificationAddress: state.notificationAddress,
  };
}

export interface QueueListing {
  readonly rows: QueueRow[];
  /** What the broker says the listing holds. */
  readonly total: number;
  /** Every row was read, so queues missing from `rows` are really gone (tier C may remove them). */
  readonly complete: boolean;
}

/** The node's notification address, for a listing asked before tier A has read it (one read, once per node). */
export async function readNotificationAddress(client: ManagementClient): Promise<string> {
  return (await readBrokerState(client)).notificationAddress;
}

function listing(pages: readonly ListPage[], coveredRows: number, notificationAddress: string): QueueListing {
  const totals = pages.map((page) => page.total);
  const total = Math.max(0, ...totals);
  // Pages answered with different totals saw queues come or go between them: rows may have shifted past a page
  // boundary, so nothing is removed on the strength of this listing.
  const steady = totals.every((value) => value === total);
  const rows = queueRowsOf(
    pages.flatMap((page) => page.rows),
    notificationAddress,
  );
  return { rows, total, complete: steady && total <= coveredRows };
}

/** Tier B: the first page of the queue listing (the queues of `notificationAddress` left out). */
export async function fetchFirstPage(
  client: ManagementClient,
  pageSize: number,
  notificationAddress: string,
): Promise<QueueListing> {
  const pages = await listResourcePages(client, 'queues', [{ page: 1, pageSize }]);
  return listing(pages, pageSize, notificationAddress);
}

/** Tier C: as many pages as the listing needed lately, all in one bulk POST. */
export async function fetchEveryPage(
  client: ManagementClient,
  pageSize: number,
  knownTotal: number,
  notificationAddress: string,
): Promise<QueueListing> {
  const pageCount = tierCPageCount(knownTotal, pageSize);
  const queries = Array.from({ length: pageCount }, (_, index) => ({ page: index + 1, pageSize }));
  const pages = await listResourcePages(client, 'queues', queries);
  return listing(pages, pageCount * pageSize, notificationAddress);
}

export function describeFailure(error: unknown): string {
  if (error instanceof ManagementError) return `${error.kind}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
