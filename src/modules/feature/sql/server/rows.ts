// The last steps every source shares: ORDER BY, then LIMIT under the row cap (reporting when the cap, not the
// LIMIT, was what cut), then the columns asked for.
import type { MessageRow } from './message-row.ts';
import { compareRows } from './query/evaluate.ts';
import type { QueryPlan } from './query/plan.ts';

export function finishRows(
  rows: readonly MessageRow[],
  plan: QueryPlan,
  rowCap: number,
): { rows: MessageRow[]; cutByRowCap: boolean } {
  const sorted = plan.orderBy.length > 0 ? [...rows].sort(compareRows(plan.orderBy)) : [...rows];
  const limit = plan.limit ?? Number.POSITIVE_INFINITY;
  const cutByRowCap = sorted.length > rowCap && limit > rowCap;
  return { rows: sorted.slice(0, Math.min(limit, rowCap)), cutByRowCap };
}
