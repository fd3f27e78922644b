'use client';
// Recommended: settings the module recommends for this cluster, each explained with what it prevents and whether the
// current revision already has it; one not taken yet loads the document with it into the editor, to review and save.
import { Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { EmptyState } from '@/ui/parts/empty-state.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { documentText } from './document-text.ts';

export function RecommendedTab({
  clusterId,
  live,
  onTake,
}: {
  clusterId: string;
  live: { meta: Record<string, unknown>; refetchInterval: number | false };
  onTake: (title: string, text: string) => void;
}) {
  const trpc = useTRPC();
  const recommendations = useQuery({ ...trpc.brokerconfig.recommendations.queryOptions({ clusterId }), ...live });
  if (recommendations.isError)
    return <ProblemView error={recommendations.error} onRetry={() => void recommendations.refetch()} />;
  if (!recommendations.data) return <Skeleton height={160} />;
  if (recommendations.data.items.length === 0) return <EmptyState title="Nothing to recommend" />;
  return (
    <Stack gap="sm">
      {recommendations.data.items.map((item) => (
        <Paper key={item.id} withBorder p="md" radius="md" data-testid="recommendation" data-id={item.id}>
          <Stack gap={6}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{item.title}</Text>
              <Badge color={item.satisfied ? 'teal' : 'orange'} variant="light" data-testid="recommendation-state">
                {item.satisfied ? 'satisfied' : 'not satisfied'}
              </Badge>
            </Group>
            <Text size="sm">{item.explanation}</Text>
            <Text size="sm" c="dimmed">
              Prevents: {item.prevents}
            </Text>
            {!item.satisfied && item.proposal && (
              <Group>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => item.proposal && onTake(item.title, documentText(item.proposal))}
                >
                  Take into a new revision
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
