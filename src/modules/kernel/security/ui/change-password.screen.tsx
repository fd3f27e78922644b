'use client';
// Changing one's own password; also where a user lands whose password must be changed before anything else.
import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState, type SyntheticEvent } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { AuthCard } from './auth-card.tsx';
import { safeNextPath } from '@/base/next-path.ts';

const MIN_LENGTH = 12;

export function ChangePasswordScreen() {
  const trpc = useTRPC();
  const router = useRouter();
  const next = safeNextPath(useSearchParams().get('next'));
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const change = useMutation(
    trpc.security.account.changePassword.mutationOptions({ onSuccess: () => router.replace(next) }),
  );
  const fieldError = (field: string) =>
    change.isError ? problemOf(change.error).errors?.find((error) => error.field === field)?.message : undefined;
  const mismatch = repeated.length > 0 && repeated !== newPassword;

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (!mismatch) change.mutate({ currentPassword, newPassword });
  };

  return (
    <AuthCard title="Change your password">
      <Text size="sm" c="dimmed">
        At least {MIN_LENGTH} characters. Your other sessions end when it changes.
      </Text>
      <form onSubmit={submit} aria-label="Change password">
        <Stack gap="sm">
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={currentPassword}
            error={fieldError('currentPassword')}
            onChange={(event) => setCurrentPassword(event.currentTarget.value)}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            minLength={MIN_LENGTH}
            value={newPassword}
            error={fieldError('newPassword')}
            onChange={(event) => setNewPassword(event.currentTarget.value)}
          />
          <PasswordInput
            label="New password again"
            autoComplete="new-password"
            required
            value={repeated}
            error={mismatch ? 'does not match the new password' : undefined}
            onChange={(event) => setRepeated(event.currentTarget.value)}
          />
          {change.isError && !fieldError('currentPassword') && !fieldError('newPassword') && (
            <ProblemView error={change.error} />
          )}
          <Button type="submit" loading={change.isPending} disabled={mismatch}>
            Change password
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
