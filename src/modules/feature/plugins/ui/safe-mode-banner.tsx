'use client';
// Safe mode (three unclean boots in a row): no plugin starts on this instance until an installer leaves it.
import { Alert, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { IconShieldExclamation } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

type SafeMode = RouterOutputs['plugins']['list']['safeMode'];

export function SafeModeBanner({ safeMode }: { safeMode: SafeMode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const leave = useMutation(trpc.plugins.leaveSafeMode.mutationOptions());
  if (!safeMode.safeMode) return null;
  const problem = leave.error ? problemOf(leave.error) : undefined;
  return (
    <Alert
      color="orange"
      variant="light"
      title="Safe mode: plugins do not start"
      icon={<IconShieldExclamation size={20} />}
      data-testid="plugins-safe-mode"
    >
      <Stack gap="xs">
        <Text size="sm">
          {safeMode.reason ?? 'Too many unclean boots.'} ({safeMode.uncleanBoots} unclean boots; instance{' '}
          {safeMode.instanceId}
          {safeMode.since && (
            <>
              , since <TimeAgo iso={safeMode.since} inline />
            </>
          )}
          )
        </Text>
        <Group align="flex-end" gap="sm">
          <PasswordInput
            label="Your password"
            size="xs"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            autoComplete="current-password"
          />
          <Button
            size="xs"
            color="orange"
            disabled={password === ''}
            loading={leave.isPending}
            onClick={() =>
              leave.mutate(
                { password },
                { onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.plugins.pathKey() }) },
              )
            }
          >
            Leave safe mode
          </Button>
        </Group>
        {problem && (
          <Text size="sm" c="red" role="alert">
            {problem.title}
            {problem.detail ? `: ${problem.detail}` : ''}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
