'use client';
// System jobs: each job's last and next run on this instance. Live: the worker publishes a `health` signal for
// the installation scope after every run, which refetches this list.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { JOB_COLUMNS } from './job-columns.tsx';

type JobsInput = RouterInputs['jobs']['list'];

export function JobsScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: 'id' });
  const input = { ...listInput(list.state), sort: list.state.sort as JobsInput['sort'] };
  const query = useQuery({
    ...trpc.jobs.list.queryOptions(input),
    ...useLive(['health']),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="System jobs"
        description="Scheduled work of this instance. A job is degraded when it has not succeeded for more than three of its intervals."
      />
      <DataTable
        tableId="jobs"
        label="System jobs"
        columns={JOB_COLUMNS}
        rowKey={(job) => job.id}
        list={list}
        query={query}
        searchPlaceholder="Search jobs"
        empty={{ title: 'No jobs', description: 'No enabled module schedules any work.' }}
      />
    </>
  );
}
