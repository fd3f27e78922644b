'use client';
// The step-up for a plugin change, as the server checks it (security's requireStepUp): a local account types its
// password again; an identity provider's account has no password here, so it signs in at its provider again (a
// sign-in within the last five minutes counts) and comes back to this page.
import { Anchor, PasswordInput, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';

export interface StepUp {
  /** Whether the change may be sent: a password typed, or an account that steps up at its provider. */
  readonly ready: boolean;
  /** What to send as `password`: none for an identity provider's account (it has none here). */
  readonly password: string | undefined;
}

/** The signed-in account's provider: `local` types a password, any other signs in again. */
export function useAccountProvider(): string | undefined {
  const trpc = useTRPC();
  return useQuery(trpc.security.account.me.queryOptions()).data?.provider;
}

export function stepUpOf(provider: string | undefined, password: string): StepUp {
  if (provider === undefined) return { ready: false, password };
  return provider === 'local' ? { ready: password !== '', password } : { ready: true, password: undefined };
}

export function StepUpField({
  provider,
  password,
  onPassword,
  description,
  width,
}: {
  provider: string | undefined;
  password: string;
  onPassword: (next: string) => void;
  description: string;
  width?: number;
}) {
  if (provider === undefined) return null;
  if (provider !== 'local') {
    const back = typeof window === 'undefined' ? '/' : `${window.location.pathname}${window.location.search}`;
    return (
      <Text size="sm" maw={width ? width + 160 : undefined} data-testid="step-up-provider">
        Your account signs in with {provider}: a sign-in there within the last five minutes confirms this change.{' '}
        <Anchor href={`/api/v1/auth/oidc/signin/${encodeURIComponent(provider)}?next=${encodeURIComponent(back)}`}>
          Sign in again with {provider}
        </Anchor>
      </Text>
    );
  }
  return (
    <PasswordInput
      label="Your password"
      description={description}
      value={password}
      onChange={(event) => onPassword(event.currentTarget.value)}
      autoComplete="current-password"
      w={width}
      data-autofocus
    />
  );
}
