'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { AUDIT_COLUMNS } from './audit-columns.tsx';
import { AUDIT_FILTERS, AuditFilters } from './audit-filters.tsx';

type AuditInput = RouterInputs['audit']['list'];

export function AuditScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: '-startedAt', filters: AUDIT_FILTERS });
  const { filters } = list.state;
  const input = {
    ...listInput(list.state),
    // The URL is not trusted: a bad value comes back as a validation problem shown by the table.
    sort: list.state.sort as AuditInput['sort'],
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.outcome ? { outcome: filters.outcome as AuditInput['outcome'] } : {}),
    ...(filters.dryRun ? { dryRun: filters.dryRun as AuditInput['dryRun'] } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
  const query = useQuery({ ...trpc.audit.list.queryOptions(input), placeholderData: keepPreviousData });
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made through Flotilla — settings now, broker operations later — with who, when, what and how it ended. Dry runs are recorded too, and so are refused attempts (outcome denied, one row per caller, action and reason with how many times)."
      />
      <DataTable
        tableId="audit"
        label="Audit log"
        columns={AUDIT_COLUMNS}
        rowKey={(row) => row.id}
        list={list}
        query={query}
        searchPlaceholder="Search target, action, request id"
        filters={<AuditFilters list={list} />}
        empty={{ title: 'Nothing audited yet', description: 'Changes appear here as soon as someone makes one.' }}
      />
    </>
  );
}
