'use client';
// The API tokens module's `account.sections` entry: how many of your tokens still work, and the way to them.
import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { TOKENS_PATH } from './tokens-path.ts';

export function TokensAccountSection() {
  const trpc = useTRPC();
  const { data: active } = useQuery({
    // A user holds at most apitokens.max-per-user tokens (50 by default): one page of 500 sees them all.
    ...trpc.apitokens.list.queryOptions({ pageSize: 500 }),
    select: (data) => data.items.filter((token) => !token.expiresAt || Date.parse(token.expiresAt) > Date.now()).length,
  });
  return (
    <PageSection title="API tokens" description="Personal tokens for scripts and agents; each acts as you.">
      <Text size="sm" data-testid="account-token-count">
        {active === undefined ? '…' : active === 1 ? '1 active token' : `${active} active tokens`}
      </Text>
      <Anchor component={Link} href={TOKENS_PATH} size="sm">
        Manage API tokens
      </Anchor>
    </PageSection>
  );
}
