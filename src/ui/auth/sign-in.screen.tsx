'use client';
// The sign-in page: outside the console shell (nothing there works before signing in). It offers the credential
// providers the installation has (GET /api/v1/auth/providers) and returns to `next` afterwards. Redirect
// providers (OIDC) add their buttons here when they arrive.
import { Button, Center, Paper, PasswordInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { IconSailboat } from '@tabler/icons-react';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useTRPC } from '../data/trpc.ts';
import { ProblemView } from '../parts/problem-view.tsx';
import { changePasswordPath, safeNext } from './session.ts';

export function SignInScreen() {
  const trpc = useTRPC();
  const next = safeNext(useSearchParams().get('next'));
  const providers = useQuery(trpc.auth.providers.queryOptions());
  const credentialProviders = (providers.data ?? []).filter((provider) => provider.kind === 'credential');
  const [provider, setProvider] = useState<string | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // A full page load afterwards: every query starts again with the new session.
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: ({ user }) => window.location.assign(user.mustChangePassword ? changePasswordPath(next) : next),
    }),
  );

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder radius="md" p="xl" w={380} component="main">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            login.mutate({ username, password, ...(provider ? { provider } : {}) });
          }}
        >
          <Stack>
            <Stack gap={4} align="center">
              <IconSailboat size={32} aria-hidden />
              <Title order={1} fz="h3">
                Sign in to Flotilla
              </Title>
            </Stack>
            {credentialProviders.length > 1 && (
              <Select
                label="Account"
                data={credentialProviders.map((entry) => ({ value: entry.id, label: entry.label }))}
                value={provider ?? credentialProviders[0]?.id ?? null}
                onChange={setProvider}
                allowDeselect={false}
              />
            )}
            <TextInput
              label="Username"
              autoComplete="username"
              required
              value={username}
              onChange={(event) => setUsername(event.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            {login.error && <ProblemView error={login.error} />}
            {providers.data && credentialProviders.length === 0 && (
              <Text size="sm" c="dimmed">
                No password sign-in is enabled in this installation.
              </Text>
            )}
            <Button type="submit" loading={login.isPending || login.isSuccess}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
