'use client';
// The sign-in page: outside the console shell (nothing there works before signing in). It offers the credential
// providers the installation has (GET /api/v1/auth/providers): a form for the credential providers and one button
// per redirect provider (OIDC), and returns to `next` afterwards. A redirect sign-in that failed comes back here
// with `?error=<problem type>`.
import {
  Alert,
  Button,
  Center,
  Divider,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { IconSailboat } from '@tabler/icons-react';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { safeNextPath } from '@/base/next-path.ts';
import { changePasswordPath } from '@/ui/auth/session.ts';

const REDIRECT_ERRORS: Record<string, string> = {
  'sign-in-failed': 'The identity provider did not sign you in, or your account here is disabled.',
  'sign-in-throttled': 'Too many failed sign-ins for this account or from this address. Try again later.',
  'internal-error': 'Something went wrong on the server; the server log has the details.',
};

export function SignInScreen() {
  const trpc = useTRPC();
  const searchParams = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const redirectError = searchParams.get('error');
  const providers = useQuery(trpc.security.auth.providers.queryOptions());
  const credentialProviders = (providers.data ?? []).filter((provider) => provider.kind === 'credential');
  const redirectProviders = (providers.data ?? []).filter((provider) => provider.kind === 'redirect');
  const [provider, setProvider] = useState<string | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // A full page load afterwards: every query starts again with the new session.
  const login = useMutation(
    trpc.security.auth.login.mutationOptions({
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
              <title>Sign in · Flotilla</title>
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
            {!login.error && redirectError && (
              <Alert color="red" title="Sign-in failed" data-testid="sign-in-error">
                {REDIRECT_ERRORS[redirectError] ?? REDIRECT_ERRORS['sign-in-failed']}
              </Alert>
            )}
            {providers.data && credentialProviders.length === 0 && (
              <Text size="sm" c="dimmed">
                No password sign-in is enabled in this installation.
              </Text>
            )}
            <Button type="submit" loading={login.isPending || login.isSuccess}>
              Sign in
            </Button>
            {redirectProviders.length > 0 && <Divider label="or" labelPosition="center" />}
            {redirectProviders.map((entry) => (
              <Button
                key={entry.id}
                component="a"
                variant="default"
                href={`${entry.startPath ?? ''}?next=${encodeURIComponent(next)}`}
              >
                Sign in with {entry.label}
              </Button>
            ))}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
