'use client';
// What the alerting screens share: the tabs between them, how old their data is and whether the stream keeps it
// fresh, whether the viewer may change anything (alert:write, a global permission) and the tooltip that says why a
// control is off, and the severity badge.
import { Badge, Box, Group, Tabs, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { usePathname, useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { DataAge as SharedDataAge } from '@/ui/stream/data-age.tsx';

const SEVERITY_COLOR: Record<string, string> = { critical: 'red', warning: 'orange', info: 'blue' };
export const SEVERITIES = ['critical', 'warning', 'info'] as const;

export function SeverityBadge({ severity }: { severity: string }) {
  return (
    <Badge color={SEVERITY_COLOR[severity] ?? 'gray'} variant="light" size="sm">
      {severity}
    </Badge>
  );
}

const TABS = [
  { value: '/alerts', label: 'Firing now' },
  { value: '/alerts/history', label: 'History' },
  { value: '/alerts/rules', label: 'Rules' },
  { value: '/alerts/channels', label: 'Channels' },
] as const;

/** The four alerting screens as tabs; each is a route of its own, so a link or reload opens the same tab. */
export function AlertingTabs() {
  const pathname = usePathname();
  const router = useRouter();
  const active =
    [...TABS].sort((a, b) => b.value.length - a.value.length).find((tab) => pathname.startsWith(tab.value))?.value ??
    '/alerts';
  return (
    <Tabs value={active} onChange={(value) => value && router.push(value)} mb="md">
      <Tabs.List aria-label="Alerting">
        {TABS.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}

/** When the list was last read, and whether `alerts` signals refresh it or it polls while the stream is down. */
export function DataAge({ updatedAt, alsoEvery }: { updatedAt: number; alsoEvery?: string }) {
  return (
    <SharedDataAge
      readAt={updatedAt > 0 ? new Date(updatedAt).toISOString() : undefined}
      refreshedWhen={`an alert changes${alsoEvery ? ` and ${alsoEvery}` : ''}`}
    />
  );
}

export interface WriteAccess {
  readonly allowed: boolean;
  /** Why the controls are off, when they are. */
  readonly reason: string | undefined;
}

/** alert:write is a global permission: the viewer's global permissions decide (the server checks again). */
export function useAlertWrite(): WriteAccess {
  const trpc = useTRPC();
  const me = useQuery(trpc.security.account.me.queryOptions());
  if (!me.data) return { allowed: false, reason: 'Checking your permissions…' };
  return me.data.globalPermissions.includes('alert:write')
    ? { allowed: true, reason: undefined }
    : { allowed: false, reason: 'Needs the alert:write permission (operators and admins hold it)' };
}

/** A control that needs alert:write: disabled with the reason in a tooltip when the viewer lacks it. */
export function WriteGate({ access, children }: { access: WriteAccess; children: ReactNode }) {
  if (access.allowed) return <>{children}</>;
  return (
    <Tooltip label={access.reason} withArrow multiline w={280}>
      <Box component="span" display="inline-block" data-testid="write-gated">
        {children}
      </Box>
    </Tooltip>
  );
}

export function Toolbar({ children }: { children: ReactNode }) {
  return (
    <Group justify="space-between" align="center" mb="xs" wrap="wrap">
      {children}
    </Group>
  );
}
