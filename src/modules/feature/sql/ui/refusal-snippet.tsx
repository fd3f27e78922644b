'use client';
// A refused capture (problem `capture-refused`): why, in the problem's words, and the broker.xml that would change the
// answer, copyable.
import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { configSnippetOf } from './sql-problem.ts';

export function SubscriptionFailure({ error }: { error: unknown }) {
  const snippet = configSnippetOf(error);
  return (
    <Stack gap="xs">
      <ProblemView error={error} />
      {snippet && (
        <Stack gap={4} data-testid="capture-refused-snippet">
          <Group justify="space-between">
            <Text size="sm" fw={500}>
              The broker configuration that would change this answer
            </Text>
            <CopyButton value={snippet}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Code block fz="xs">
            {snippet}
          </Code>
        </Stack>
      )}
    </Stack>
  );
}
