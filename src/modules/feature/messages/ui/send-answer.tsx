'use client';
// What a send or its preview answered: the node it went (or would go) through, a failure with its advice, the
// audit row, and the message as the content policy echoes it.
import { Alert, Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { MessageDetails } from './message-details.tsx';

export type SendAnswer = RouterOutputs['messages']['send'];

export function SendAnswerView({ answer, address }: { answer: SendAnswer; address: string }) {
  const { result } = answer;
  const node = result.nodes.find((candidate) => candidate.outcome !== 'NOT_PRESENT') ?? result.nodes[0];
  const failed = result.nodes.find((candidate) => candidate.failure);
  return (
    <Stack gap="sm" data-testid={result.dryRun ? 'send-preview' : 'send-outcome'}>
      <Alert
        color={failed ? 'red' : result.dryRun ? 'blue' : 'teal'}
        variant="light"
        title={result.dryRun ? 'Preview: nothing was sent' : failed ? 'Not sent' : 'Sent'}
      >
        <Stack gap={4}>
          <Text size="sm">
            {result.dryRun ? 'Would go' : 'Went'} to {address} through <strong>{node?.nodeName ?? 'no node'}</strong>{' '}
            <Badge size="xs" variant="light">
              {node?.outcome.toLowerCase().replace('_', ' ') ?? ''}
            </Badge>
          </Text>
          {failed?.failure && (
            <Text size="sm">
              {failed.failure.kind}: {failed.failure.message}. {failed.failure.advice}
            </Text>
          )}
          <Group gap="xs">
            <Anchor
              component={Link}
              href={`/audit?${new URLSearchParams({ action: result.action, q: address, dryRun: String(result.dryRun) }).toString()}`}
              size="sm"
            >
              Open the audit log
            </Anchor>
            <Text size="xs" c="dimmed">
              audit row {result.auditId}
            </Text>
          </Group>
        </Stack>
      </Alert>
      <Text size="sm" fw={600}>
        {result.dryRun ? 'The message as it would be sent' : 'The message as sent'} (through the content policy)
      </Text>
      <MessageDetails message={answer.echo} />
    </Stack>
  );
}
