// The diverts list: each node's diverts merged by name into one row with the nodes that have it, the nodes read that
// lack it, and the fields that differ between them; then searched, sorted and paged here (a cluster has a few
// hundred diverts at most, all read at once). Pure.
import { pageOf, parseSort } from '@/modules/kernel/core/index.ts';
import type { RoutingDivert, RoutingNodeView } from '../../model/routing-view.ts';
import type { DivertRow, DivertSortField } from './diverts.schema.ts';

const COMPARED = [
  'address',
  'forwardingAddress',
  'exclusive',
  'filter',
  'routingType',
  'transformerClassName',
] as const;

type NodeRef = DivertRow['presentOn'][number];

export function divertRows(views: readonly RoutingNodeView[]): DivertRow[] {
  const nodes = [...views].sort((a, b) => a.nodeName.localeCompare(b.nodeName));
  const byName = new Map<string, { divert: RoutingDivert; node: NodeRef }[]>();
  for (const view of nodes)
    for (const divert of view.diverts) {
      const held = byName.get(divert.name) ?? [];
      held.push({ divert, node: { nodeId: view.nodeId, nodeName: view.nodeName } });
      byName.set(divert.name, held);
    }
  return [...byName.values()].map((held) => {
    const [first] = held as [(typeof held)[number], ...typeof held];
    const present = new Set(held.map((entry) => entry.node.nodeId));
    return {
      ...first.divert,
      presentOn: held.map((entry) => entry.node),
      missingOn: nodes
        .filter((view) => !present.has(view.nodeId))
        .map((view) => ({ nodeId: view.nodeId, nodeName: view.nodeName })),
      differs: COMPARED.filter((field) => held.some((entry) => entry.divert[field] !== first.divert[field])),
    };
  });
}

function sortValue(row: DivertRow, field: DivertSortField): string | number {
  // Presence: the rows with nodes lacking the divert first when ascending — the ones that need an eye.
  if (field === 'presence') return -row.missingOn.length;
  return row[field];
}

export function pageDivertRows(
  rows: readonly DivertRow[],
  query: { readonly q?: string | undefined; readonly sort: string; readonly page: number; readonly pageSize: number },
) {
  const needle = query.q?.toLowerCase() ?? '';
  const matching = rows.filter(
    (row) =>
      !needle ||
      [row.name, row.address, row.forwardingAddress, row.filter ?? ''].some((text) =>
        text.toLowerCase().includes(needle),
      ),
  );
  const { field, direction } = parseSort<DivertSortField>(query.sort);
  const sign = direction === 'desc' ? -1 : 1;
  const sorted = [...matching].sort((a, b) => {
    const left = sortValue(a, field);
    const right = sortValue(b, field);
    const order =
      typeof left === 'number' && typeof right === 'number' ? left - right : String(left).localeCompare(String(right));
    return sign * order || a.name.localeCompare(b.name);
  });
  const start = (query.page - 1) * query.pageSize;
  return pageOf(sorted.slice(start, start + query.pageSize), matching.length, query.page, query.pageSize);
}
