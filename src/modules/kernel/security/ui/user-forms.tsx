'use client';
// Creating a local user, and changing one (names, email, disabled, a password reset, or deleting it: delete-user.tsx).
// The server's problem names the fields it refuses; they show inline.
import { Alert, Button, Checkbox, Divider, PasswordInput, Stack, Switch, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { DeleteUser } from './delete-user.tsx';
import { fieldErrors, FormProblem } from './form-problem.tsx';
import { ProfileFields } from './profile-fields.tsx';
import type { UserRow } from './user-columns.tsx';
import { createUserInput, updateUserInput, type Profile } from './user-input.ts';
import { useUsersChanged } from './use-users-changed.ts';

const MIN_PASSWORD_LENGTH = 12;

export function CreateUserForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const done = useUsersChanged(onDone);
  const [username, setUsername] = useState('');
  const [profile, setProfile] = useState<Profile>({ displayName: '', email: '' });
  const [password, setPassword] = useState('');
  const [mustChangePassword, setMustChangePassword] = useState(true);
  const create = useMutation(trpc.security.users.create.mutationOptions({ onSuccess: done }));
  const errorOf = fieldErrors(create.error);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    create.mutate(createUserInput({ username, password, mustChangePassword, profile }));
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

export function EditUserForm({ user, onDone }: { user: UserRow; onDone: () => void }) {
  const trpc = useTRPC();
  const done = useUsersChanged(onDone);
  const [profile, setProfile] = useState<Profile>({ displayName: user.displayName ?? '', email: user.email ?? '' });
  const [disabled, setDisabled] = useState(user.disabled);
  const [password, setPassword] = useState('');
  const update = useMutation(trpc.security.users.update.mutationOptions({ onSuccess: done }));
  const errorOf = fieldErrors(update.error);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    update.mutate(updateUserInput(user.id, { profile, disabled, password }));
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
