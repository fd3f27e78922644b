'use client';
// Your account: who you are signed in as and through which provider, what your grants let you do, your password,
// and the sections other modules contribute to `account.sections` (API tokens, later notification preferences).
import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { changePasswordPath } from '@/ui/auth/session.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { Slot } from '@/ui/slots/slot.tsx';

const LOCAL_PROVIDER = 'local';

function Permissions({ permissions }: { permissions: readonly string[] }) {
  if (permissions.length === 0)
    return (
      <Text size="sm" c="dimmed">
        none
      </Text>
    );
  return (
    <Group gap={4}>
      {permissions.map((permission) => (
        <Badge key={permission} size="sm" variant="light" tt="none">
          {permission}
        </Badge>
      ))}
    </Group>
  );
}

export function AccountScreen() {
  const trpc = useTRPC();
  const me = useQuery(trpc.account.me.queryOptions());
  if (me.isError) return <ProblemView error={me.error} onRetry={() => void me.refetch()} />;
  const account = me.data;
  return (
    <>
      <PageHeader title="Your account" description="Who you are signed in as, and what you may do." />
      <Stack gap="lg">
        <PageSection title="Profile">
          <Table variant="vertical" maw={560} data-testid="account-profile">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={180}>Username</Table.Th>
                <Table.Td>{account?.username}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Signed in with</Table.Th>
                <Table.Td>{account?.provider}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Audited as</Table.Th>
                <Table.Td>
                  <Text span size="sm" ff="monospace">
                    {account?.actor}
                  </Text>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </PageSection>
        <PageSection
          title="What you may do"
          description="Everywhere, then per environment or cluster; an administrator changes grants under Admin → Access."
        >
          <Stack gap="sm" data-testid="account-permissions">
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                Everywhere
              </Text>
              <Permissions permissions={account?.globalPermissions ?? []} />
            </Stack>
            {(account?.grants ?? [])
              .filter((grant) => grant.scopeId !== null)
              .map((grant) => (
                <Stack key={`${grant.scope}:${grant.scopeId}`} gap={4}>
                  <Text size="sm" fw={600}>
                    {grant.scope.toLowerCase()}{' '}
                    <Text span size="xs" ff="monospace" c="dimmed">
                      {grant.scopeId}
                    </Text>
                  </Text>
                  <Permissions permissions={grant.permissions} />
                </Stack>
              ))}
          </Stack>
        </PageSection>
        {account?.provider === LOCAL_PROVIDER && (
          <PageSection title="Password">
            <Anchor component={Link} href={changePasswordPath('/account')} size="sm">
              Change your password
            </Anchor>
          </PageSection>
        )}
        <Slot id="account.sections" props={{}} />
      </Stack>
    </>
  );
}
