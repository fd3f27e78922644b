'use client';
// What every live-through screen says above its rows: how old the data is (it was read from the brokers and is
// shared for a few seconds), which nodes failed and why with the configuration that fixes it, and which nodes hold
// more rows than one read asks for.
import { Alert, Code, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

export interface NodeOutcomeView {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly ok: boolean;
  readonly rows?: number;
  readonly total?: number;
  readonly truncated?: boolean;
  readonly failure: { kind: string; message: string; advice: string; configSnippet: string | null } | null;
}

export function LiveAnswer({
  fetchedAt,
  nodes,
  live,
}: {
  fetchedAt: string | undefined;
  nodes: readonly NodeOutcomeView[] | undefined;
  /** The stream is connected (signals refresh the screen) or the screen polls. */
  live: boolean;
}) {
  const failed = (nodes ?? []).filter((node) => !node.ok);
  const truncated = (nodes ?? []).filter((node) => node.truncated);
  return (
    <Stack gap="xs" mb="sm">
      <Text size="sm" c="dimmed" data-testid="live-age">
        {fetchedAt ? (
          <>
            Read from {nodes?.length ?? 0} serving {nodes?.length === 1 ? 'node' : 'nodes'}{' '}
            <TimeAgo iso={fetchedAt} inline />
            {live ? '; refreshed when brokers report a change' : '; polling while the live stream is down'}.
          </>
        ) : (
          'Reading from the brokers…'
        )}
      </Text>
      {failed.map((node) => (
        <Alert
          key={node.nodeId}
          color="orange"
          icon={<IconAlertTriangle size={18} />}
          title={`${node.nodeName} did not answer: its rows are missing`}
          data-testid="failed-node"
          data-node={node.nodeName}
        >
          <Stack gap={4}>
            <Text size="sm">
              {node.failure?.kind}: {node.failure?.message}
            </Text>
            <Text size="sm">{node.failure?.advice}</Text>
            {node.failure?.configSnippet && (
              <Code block fz="xs">
                {node.failure.configSnippet}
              </Code>
            )}
          </Stack>
        </Alert>
      ))}
      {truncated.length > 0 && (
        <Group gap="xs">
          <Text size="sm" c="orange" data-testid="truncated-nodes">
            {truncated
              .map((node) => `${node.nodeName} holds ${String(node.total)} and gave the first ${String(node.rows)}`)
              .join('; ')}{' '}
            (resources.max-rows-per-node).
          </Text>
        </Group>
      )}
    </Stack>
  );
}
