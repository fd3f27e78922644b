'use client';
// Deleting a user, held to confirm; the only administrator is not offered it, with the reason.
import { Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { FormProblem } from './form-problem.tsx';
import type { UserRow } from './user-columns.tsx';
import { useUsersChanged } from './use-users-changed.ts';

export function DeleteUser({ user, onDone }: { user: UserRow; onDone: () => void }) {
  const trpc = useTRPC();
  const done = useUsersChanged(onDone);
  const remove = useMutation(trpc.security.users.delete.mutationOptions({ onSuccess: done }));
  if (user.soleAdministrator) {
    // The server would refuse (409 last-admin): say why instead of offering it.
    return (
      <Text size="sm" c="dimmed" data-testid="sole-admin">
        {user.username} is the only administrator and cannot be deleted or disabled. Give someone else the admin role
        everywhere first.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Deleting {user.username} removes their grants, sessions and API tokens.
      </Text>
      <HoldToConfirm
        action="Delete"
        count={1}
        noun={['user', 'users']}
        disabled={remove.isPending}
        onConfirm={() => remove.mutate({ id: user.id })}
      />
      <FormProblem error={remove.error} fields={[]} />
    </Stack>
  );
}
