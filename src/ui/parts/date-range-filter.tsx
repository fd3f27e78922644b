'use client';
// A list's From and To filters: two local date-time fields whose values travel as ISO 8601 (the list's URL state
// and the API both take that). The events list and the audit log filter by time alike with it.
import { TextInput } from '@mantine/core';
import { isoOfLocalInput, localInputOfIso } from '@/ui/time/datetime-local.ts';

type Bound = 'from' | 'to';

export function DateRangeFilter({
  from,
  to,
  onChange,
}: {
  from: string | undefined;
  to: string | undefined;
  /** An ISO 8601 instant, or undefined when the field is cleared. */
  onChange: (bound: Bound, iso: string | undefined) => void;
}) {
  return (
    <>
      <TextInput
        type="datetime-local"
        label="From"
        w={175}
        value={localInputOfIso(from)}
        onChange={(event) => onChange('from', isoOfLocalInput(event.currentTarget.value))}
      />
      <TextInput
        type="datetime-local"
        label="To"
        w={175}
        value={localInputOfIso(to)}
        onChange={(event) => onChange('to', isoOfLocalInput(event.currentTarget.value))}
      />
    </>
  );
}
