'use client';
// The header's user menu: who is signed in, their own account pages, and signing out.
import { Button, Menu, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconChevronDown, IconKey, IconLock, IconLogout, IconUserCircle } from '@tabler/icons-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import { changePasswordPath, signOut } from '../auth/session.ts';
import { useTRPC } from '../data/trpc.ts';
import { useConsoleUi } from '../slots/console-ui-context.ts';

const TOKENS_PATH = '/account/tokens';

export function UserMenu() {
  const trpc = useTRPC();
  const pathname = usePathname();
  const me = useQuery(trpc.account.me.queryOptions());
  // API tokens are a feature that may be off: offer them only when an enabled module serves the page.
  const { enabled } = useConsoleUi();
  const hasTokens = enabled.some((ui) => ui.routes?.includes(TOKENS_PATH));
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
        <Menu.Item component={Link} href={changePasswordPath(pathname)} leftSection={<IconLock size={16} />}>
          Change password
        </Menu.Item>
        {hasTokens && (
          <Menu.Item component={Link} href={TOKENS_PATH} leftSection={<IconKey size={16} />}>
            API tokens
          </Menu.Item>
        )}
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
