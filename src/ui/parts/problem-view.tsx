'use client';
// Shows a failed request as its RFC 9457 problem: title, detail, and the request id to quote to an operator.
import { Alert, Button, CopyButton, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { problemOf } from '../data/problem.ts';

export function ProblemView({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const problem = problemOf(error);
  return (
    <Alert
      color="red"
      variant="light"
      title={problem.title}
      icon={<IconAlertTriangle size={20} />}
      role="alert"
      data-testid="problem"
    >
      {problem.detail && problem.detail !== problem.title && <Text size="sm">{problem.detail}</Text>}
      <Group gap="xs" mt="xs">
        {problem.requestId && (
          <>
            <Text size="xs" c="dimmed">
              Request id <code data-testid="problem-request-id">{problem.requestId}</code>
            </Text>
            <CopyButton value={problem.requestId}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="subtle" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </>
        )}
        {onRetry && (
          <Button size="compact-xs" variant="light" color="red" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Group>
    </Alert>
  );
}
