'use client';
// The audit log's own filters, kept in the URL beside q/sort/page.
import { Select } from '@mantine/core';
import { DateRangeFilter } from '@/ui/parts/date-range-filter.tsx';
import type { ListStateApi } from '@/ui/table/list-state.ts';
import { SearchBox } from '@/ui/table/search-box.tsx';

export const AUDIT_FILTERS = ['actor', 'action', 'outcome', 'dryRun', 'from', 'to'] as const;
export type AuditFilter = (typeof AUDIT_FILTERS)[number];

// DENIED: calls an access check refused (403, a hidden cluster's 404, 409, CSRF), one row per key and window.
const OUTCOMES = ['SUCCEEDED', 'FAILED', 'PARTIAL', 'REFUSED', 'DENIED', 'PENDING', 'INTERRUPTED'];

export function AuditFilters({ list }: { list: ListStateApi<AuditFilter> }) {
  const { filters } = list.state;
  return (
    <>
      <SearchBox
        label="Actor"
        showLabel
        width={150}
        placeholder="anyone"
        value={filters.actor ?? ''}
        onChange={(value) => list.setFilter('actor', value || undefined)}
      />
      <SearchBox
        label="Action"
        showLabel
        width={160}
        placeholder="e.g. setting.update"
        value={filters.action ?? ''}
        onChange={(value) => list.setFilter('action', value || undefined)}
      />
      <Select
        label="Outcome"
        placeholder="any"
        clearable
        w={130}
        data={OUTCOMES.map((outcome) => ({ value: outcome, label: outcome.toLowerCase() }))}
        value={filters.outcome ?? null}
        onChange={(value) => list.setFilter('outcome', value ?? undefined)}
      />
      <Select
        label="Dry runs"
        placeholder="included"
        clearable
        w={140}
        data={[
          { value: 'true', label: 'only dry runs' },
          { value: 'false', label: 'no dry runs' },
        ]}
        value={filters.dryRun ?? null}
        onChange={(value) => list.setFilter('dryRun', value ?? undefined)}
      />
      <DateRangeFilter from={filters.from} to={filters.to} onChange={(bound, iso) => list.setFilter(bound, iso)} />
    </>
  );
}
