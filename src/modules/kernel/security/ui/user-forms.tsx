'use client';
// Creating a local user, and changing one (names, email, disabled, a password reset, or deleting it). The
// server's problem names the fields it refuses; they show inline.
import { Alert, Button, Checkbox, Divider, PasswordInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { fieldErrors, FormProblem } from './form-problem.tsx';
import type { UserRow } from './user-columns.tsx';

const MIN_PASSWORD_LENGTH = 12;

interface Profile {
  readonly displayName: string;
  readonly email: string;
}

function ProfileFields({
  profile,
  onChange,
  errorOf,
}: {
  profile: Profile;
  onChange: (next: Profile) => void;
  errorOf: (field: string) => string | undefined;
}) {
  return (
    <>
      <TextInput
        label="Display name"
        value={profile.displayName}
        error={errorOf('displayName')}
        onChange={(event) => onChange({ ...profile, displayName: event.currentTarget.value })}
      />
      <TextInput
        label="Email"
        value={profile.email}
        error={errorOf('email')}
        onChange={(event) => onChange({ ...profile, email: event.currentTarget.value })}
      />
    </>
  );
}

function useUsersMutationDone(onDone: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries(trpc.users.pathFilter()),
      queryClient.invalidateQueries(trpc.grants.pathFilter()),
    ]);
    onDone();
  };
}

export function CreateUserForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const done = useUsersMutationDone(onDone);
  const [username, setUsername] = useState('');
  const [profile, setProfile] = useState<Profile>({ displayName: '', email: '' });
  const [password, setPassword] = useState('');
  const [mustChangePassword, setMustChangePassword] = useState(true);
  const create = useMutation(trpc.users.create.mutationOptions({ onSuccess: done }));
  const errorOf = fieldErrors(create.error);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    create.mutate({
      username,
      password,
      mustChangePassword,
      ...(profile.displayName.trim() ? { displayName: profile.displayName } : {}),
      ...(profile.email.trim() ? { email: profile.email.trim() } : {}),
    });
  };
  return (
    <form onSubmit={submit} aria-label="Create user">
      <Stack gap="sm">
        <TextInput
          label="Username"
          required
          data-autofocus
          value={username}
          error={errorOf('username')}
          onChange={(event) => setUsername(event.currentTarget.value)}
        />
        <ProfileFields profile={profile} onChange={setProfile} errorOf={errorOf} />
        <PasswordInput
          label="Password"
          description={`At least ${MIN_PASSWORD_LENGTH} characters; tell the user in person or over a safe channel`}
          autoComplete="new-password"
          required
          value={password}
          error={errorOf('password')}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <Checkbox
          label="Must choose a new password at the first sign-in"
          checked={mustChangePassword}
          onChange={(event) => setMustChangePassword(event.currentTarget.checked)}
        />
        <FormProblem error={create.error} fields={['username', 'displayName', 'email', 'password']} />
        <Button type="submit" loading={create.isPending}>
          Create user
        </Button>
      </Stack>
    </form>
  );
}

function DeleteUser({ user, onDone }: { user: UserRow; onDone: () => void }) {
  const trpc = useTRPC();
  const done = useUsersMutationDone(onDone);
  const remove = useMutation(trpc.users.delete.mutationOptions({ onSuccess: done }));
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

export function EditUserForm({ user, onDone }: { user: UserRow; onDone: () => void }) {
  const trpc = useTRPC();
  const done = useUsersMutationDone(onDone);
  const [profile, setProfile] = useState<Profile>({ displayName: user.displayName ?? '', email: user.email ?? '' });
  const [disabled, setDisabled] = useState(user.disabled);
  const [password, setPassword] = useState('');
  const update = useMutation(trpc.users.update.mutationOptions({ onSuccess: done }));
  const errorOf = fieldErrors(update.error);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    update.mutate({
      id: user.id,
      displayName: profile.displayName.trim() ? profile.displayName : null,
      email: profile.email.trim() ? profile.email.trim() : null,
      disabled,
      ...(password ? { password } : {}),
    });
  };
  return (
    <Stack gap="md">
      <form onSubmit={submit} aria-label="Change user">
        <Stack gap="sm">
          <TextInput label="Username" value={user.username} readOnly disabled />
          <ProfileFields profile={profile} onChange={setProfile} errorOf={errorOf} />
          <Switch
            label="Disabled"
            description={
              user.soleAdministrator
                ? 'The only administrator cannot be disabled'
                : 'A disabled user cannot sign in; their sessions and API tokens stop at once'
            }
            checked={disabled}
            disabled={user.soleAdministrator && !user.disabled}
            onChange={(event) => setDisabled(event.currentTarget.checked)}
          />
          {user.external ? (
            <Alert color="gray" variant="light">
              {user.providerId} signs this user in; their password is not kept here.
            </Alert>
          ) : (
            <PasswordInput
              label="Reset password"
              description="Leave empty to keep it. A new one must be changed at the next sign-in; sessions end."
              autoComplete="new-password"
              value={password}
              error={errorOf('password')}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
          )}
          <FormProblem error={update.error} fields={['displayName', 'email', 'password']} />
          <Button type="submit" loading={update.isPending}>
            Save changes
          </Button>
        </Stack>
      </form>
      <Divider label="Delete" labelPosition="left" />
      <DeleteUser user={user} onDone={onDone} />
    </Stack>
  );
}
