'use client';
// A setting's recent changes under its editor, read when opened (GET /api/v1/settings/{key}/history): when, who,
// from → to. Dry runs are not changes and are not listed.
import { Code, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

const SHOWN = 10;

const valueText = (value: string | number | boolean | null) => (value === null ? '?' : String(value));

export function SettingHistory({ settingKey }: { settingKey: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.settings.history.queryOptions({ key: settingKey, pageSize: SHOWN }));
  if (query.error) return <ProblemView error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <Text size="xs">Loading history…</Text>;
  if (query.data.total === 0)
    return (
      <Text size="xs" c="dimmed" data-testid="setting-history">
        Never changed.
      </Text>
    );
  return (
    <Stack gap={2} data-testid="setting-history" aria-label={`History of ${settingKey}`}>
      {query.data.items.map((entry) => (
        <Group key={`${entry.at}:${entry.action}`} gap={6} data-testid="setting-history-entry">
          <Text size="xs" c="dimmed">
            <TimeAgo iso={entry.at} />
          </Text>
          <Text size="xs">{entry.actor}</Text>
          <Text size="xs">
            {entry.action === 'setting.reset' ? 'reset ' : ''}
            <Code>{valueText(entry.from)}</Code> → <Code>{valueText(entry.to)}</Code>
          </Text>
        </Group>
      ))}
      {query.data.total > SHOWN && (
        <Text size="xs" c="dimmed">
          and {query.data.total - SHOWN} earlier
        </Text>
      )}
    </Stack>
  );
}
