'use client';
// The queue grid's filters, kept in the URL with the rest of the view: consumers, paused, stale, dead-letter and
// expiry queues, growing backlogs, the consumer-health verdict (with the metrics module), and whether Artemis's
// internal queues show at all.
import { Select, Switch } from '@mantine/core';
import { NEEDS_ATTENTION, VERDICTS_WORST_FIRST, verdictLabel, type Verdict } from '@/base/consumer-verdicts.ts';
import type { ListStateApi } from '@/ui/table/list-state.ts';

export const QUEUE_FILTERS = ['consumers', 'paused', 'stale', 'deadLetter', 'growing', 'verdict', 'internal'] as const;
export type QueueFilter = (typeof QUEUE_FILTERS)[number];

interface Choice {
  readonly filter: Exclude<QueueFilter, 'internal'>;
  readonly label: string;
  readonly options: ReadonlyArray<{ value: string; label: string }>;
}

/** Not offered alone: paused queues have the State filter, and a queue too new to judge has no health to look for. */
const NOT_OFFERED: ReadonlySet<Verdict> = new Set(['PAUSED', 'INSUFFICIENT_DATA']);
const capitalized = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

const CHOICES: readonly Choice[] = [
  {
    filter: 'consumers',
    label: 'Consumers',
    options: [
      { value: 'with', label: 'Has consumers' },
      { value: 'without', label: 'No consumers' },
    ],
  },
  {
    filter: 'paused',
    label: 'State',
    options: [
      { value: 'true', label: 'Paused' },
      { value: 'false', label: 'Running' },
    ],
  },
  {
    filter: 'stale',
    label: 'Numbers',
    options: [
      { value: 'true', label: 'Stale' },
      { value: 'false', label: 'Fresh' },
    ],
  },
  {
    filter: 'deadLetter',
    label: 'Kind',
    options: [
      { value: 'true', label: 'Dead-letter and expiry' },
      { value: 'false', label: 'Other queues' },
    ],
  },
  {
    filter: 'verdict',
    label: 'Consumer health',
    options: [
      { value: NEEDS_ATTENTION.join(','), label: 'Needs attention' },
      ...VERDICTS_WORST_FIRST.filter((verdict) => !NOT_OFFERED.has(verdict)).map((verdict) => ({
        value: verdict,
        label: capitalized(verdictLabel(verdict)),
      })),
    ],
  },
  {
    filter: 'growing',
    label: 'Backlog',
    options: [
      { value: 'true', label: 'Growing' },
      { value: 'false', label: 'Not growing' },
    ],
  },
];

export function QueueFilters({ list }: { list: ListStateApi<QueueFilter> }) {
  return (
    <>
      {CHOICES.map((choice) => (
        <Select
          key={choice.filter}
          label={choice.label}
          placeholder="Any"
          data={choice.options as Array<{ value: string; label: string }>}
          value={list.state.filters[choice.filter] ?? null}
          onChange={(value) => list.setFilter(choice.filter, value ?? undefined)}
          clearable
          size="xs"
          w={170}
        />
      ))}
      <Switch
        label="Show internal queues"
        checked={list.state.filters.internal === 'true'}
        onChange={(event) => list.setFilter('internal', event.currentTarget.checked ? 'true' : undefined)}
        size="sm"
        mb={6}
      />
    </>
  );
}
