'use client';
// The admin area: tabs contributed by enabled modules to `admin.tabs`, grouped under the fixed admin groups.
import { Group, Stack, Tabs, Text } from '@mantine/core';
import { usePathname, useRouter } from 'next/navigation';
import { Fragment, useEffect, type ReactNode } from 'react';
import { EmptyState } from '../parts/empty-state.tsx';
import { ADMIN_GROUPS } from '../slots/slot-ids.ts';
import { useContributions } from '../slots/slot.tsx';

function useAdminTabGroups() {
  const tabs = useContributions('admin.tabs');
  return ADMIN_GROUPS.map((group) => ({ group, tabs: tabs.filter((tab) => tab.group === group) })).filter(
    (entry) => entry.tabs.length > 0,
  );
}

/** `/admin` itself opens the first tab of the first group (Access → Users when the security kernel's tabs lead). */
export function AdminHome() {
  const first = useAdminTabGroups()[0]?.tabs[0];
  const router = useRouter();
  useEffect(() => {
    if (first) router.replace(first.href);
  }, [first, router]);
  return null;
}

export function AdminArea({ children }: { children: ReactNode }) {
  const groups = useAdminTabGroups();
  const pathname = usePathname();
  const router = useRouter();
  const active = groups
    .flatMap((group) => group.tabs)
    .find((tab) => pathname === tab.href || pathname.startsWith(`${tab.href}/`));
  return (
    <Stack gap="lg">
      <Tabs value={active?.href ?? null} onChange={(href) => href && router.push(href)} aria-label="Admin">
        <Tabs.List>
          {groups.map(({ group, tabs: groupTabs }) => (
            <Fragment key={group}>
              <Group px="xs" align="center" aria-hidden>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase">
                  {group}
                </Text>
              </Group>
              {groupTabs.map((tab) => (
                <Tabs.Tab key={tab.id} value={tab.href}>
                  {tab.label}
                </Tabs.Tab>
              ))}
            </Fragment>
          ))}
        </Tabs.List>
      </Tabs>
      {children ?? <EmptyState title="Pick an admin page above" />}
    </Stack>
  );
}
