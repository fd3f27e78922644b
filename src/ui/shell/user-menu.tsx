'use client';
// The header's user menu: who is signed in, their account page (where modules add sections such as API tokens),
// the password, and signing out.
import { Button, Menu, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconChevronDown, IconLock, IconLogout, IconUser, IconUserCircle } from '@tabler/icons-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import { changePasswordPath, signOut } from '../auth/session.ts';
import { useTRPC } from '../data/trpc.ts';

export function UserMenu() {
  const trpc = useTRPC();
  const pathname = usePathname();
  const me = useQuery(trpc.security.account.me.queryOptions());
  const [signingOut, setSigningOut] = useState(false);
  const username = me.data?.username ?? '…';
  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconUserCircle size={18} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={`Account menu of ${username}`}
          loading={signingOut}
          data-testid="user-menu"
        >
          <Text size="sm" fw={500} maw={160} truncate>
            {username}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Signed in as {username}</Menu.Label>
        <Menu.Item component={Link} href="/account" leftSection={<IconUser size={16} />}>
          Your account
        </Menu.Item>
        <Menu.Item component={Link} href={changePasswordPath(pathname)} leftSection={<IconLock size={16} />}>
          Change password
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          onClick={() => {
            setSigningOut(true);
            void signOut();
          }}
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
