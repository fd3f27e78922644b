'use client';
// The navbar: Home, then the five fixed groups with the entries enabled modules contribute, then Admin.
import { Box, NavLink, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { IconHome, IconSettingsCog } from '@tabler/icons-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useConsoleUi } from '../slots/console-ui-context.ts';
import { activeNavHref, navigationGroups } from '../slots/resolve-ui.ts';
import { Slot } from '../slots/slot.tsx';

const isActive = (pathname: string, href: string) =>
  href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);

export function Navigation({ onNavigate }: { onNavigate: () => void }) {
  const pathname = usePathname();
  const { manifest, enabled } = useConsoleUi();
  const groups = navigationGroups(enabled);
  const activeHref = activeNavHref(enabled, pathname);
  return (
    <Stack gap={0} h="100%" component="nav" aria-label="Main">
      <ScrollArea style={{ flex: 1 }} type="auto">
        <NavLink
          component={Link}
          href="/"
          label="Home"
          leftSection={<IconHome size={18} />}
          active={pathname === '/'}
          onClick={onNavigate}
        />
        {!manifest && (
          <Stack gap="xs" p="sm" aria-hidden>
            <Skeleton height={12} width="40%" />
            <Skeleton height={28} />
            <Skeleton height={12} width="40%" />
            <Skeleton height={28} />
          </Stack>
        )}
        {groups.map((group) => (
          <Box
            key={group.group}
            mt="md"
            role="group"
            aria-labelledby={`nav-group-${group.group}`}
            data-nav-group={group.group}
          >
            <Text id={`nav-group-${group.group}`} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
              {group.label}
            </Text>
            {group.entries.map((entry) => {
              const Icon = entry.icon;
              return (
                <NavLink
                  key={entry.href}
                  component={Link}
                  href={entry.href}
                  label={entry.label}
                  leftSection={Icon ? <Icon size={18} /> : undefined}
                  active={entry.href === activeHref}
                  onClick={onNavigate}
                />
              );
            })}
          </Box>
        ))}
        <Slot id="shell.navbar" props={{}} />
      </ScrollArea>
      <Box pt="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <NavLink
          component={Link}
          href="/admin"
          label="Admin"
          leftSection={<IconSettingsCog size={18} />}
          active={isActive(pathname, '/admin')}
          onClick={onNavigate}
        />
      </Box>
    </Stack>
  );
}
