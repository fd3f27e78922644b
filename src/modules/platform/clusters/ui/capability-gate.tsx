'use client';
// Whether a write control may act on a cluster, from the cluster's capability ledger. AVAILABLE: nothing to say.
// UNKNOWN: the control stays enabled and says what is not confirmed yet (the ledger's detail). UNAVAILABLE: the
// control is disabled, with the reason and the broker configuration that would change it. Every write control of
// the console (queue operations, message actions, addresses, connections, send) asks here, through ui.ts.
import { Box, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconBan } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { ConfigSnippet } from './config-snippet.tsx';
import { gateOf, OPEN, type CapabilityGate, type GatedCapability } from './gate-of.ts';

/** The gate of a cluster's write controls (default: management writes). Live on the `health` topic. */
export function useCapabilityGate(
  clusterId: string | undefined,
  capabilities: readonly GatedCapability[] = ['MANAGEMENT_WRITE'],
): CapabilityGate {
  const trpc = useTRPC();
  const live = useLive(['health']);
  const ledger = useQuery({
    ...trpc.clusters.capabilities.queryOptions({ clusterId: clusterId ?? '' }),
    ...live,
    enabled: Boolean(clusterId),
  });
  return clusterId ? gateOf(ledger.data?.items, capabilities) : OPEN;
}

/**
 * The gate said where a control is: nothing when AVAILABLE; a small warning (UNKNOWN) or the reason with the
 * configuration snippet (UNAVAILABLE). `compact` keeps it narrow, for a menu.
 */
export function CapabilityNote({ gate, compact = false }: { gate: CapabilityGate; compact?: boolean }) {
  if (!gate.reason) return null;
  const colour = gate.disabled ? 'red' : 'orange';
  const Icon = gate.disabled ? IconBan : IconAlertTriangle;
  return (
    <Stack
      gap={4}
      data-testid="capability-note"
      data-value={gate.value}
      data-capability={gate.capability}
      maw={compact ? 320 : undefined}
    >
      <Group gap={6} wrap="nowrap" align="flex-start">
        <Box c={colour} style={{ flexShrink: 0, lineHeight: 0, paddingTop: 2 }}>
          <Icon size={14} aria-hidden />
        </Box>
        <Text size="xs" c={colour}>
          {gate.reason}
          {gate.disabled ? '.' : '. The control stays enabled; the brokers have the last word.'}
        </Text>
      </Group>
      {gate.snippet && <ConfigSnippet snippet={gate.snippet} />}
    </Stack>
  );
}

/**
 * Wraps a control (a button) so its gate shows: a tooltip with the reason over a disabled or uncertain control, and
 * the control disabled when UNAVAILABLE is the child's job (pass `disabled={gate.disabled}`). A disabled button
 * takes no pointer events, so the tooltip sits on a wrapper.
 */
export function GateTooltip({ gate, children }: { gate: CapabilityGate; children: ReactNode }) {
  if (!gate.reason) return <>{children}</>;
  return (
    <Tooltip label={gate.reason} multiline w={320} withArrow>
      <Box component="span" display="inline-block" data-testid="capability-gated" data-value={gate.value}>
        {children}
      </Box>
    </Tooltip>
  );
}

/** The mark beside an uncertain control's label (UNKNOWN): a small warning icon. */
export function GateIcon({ gate }: { gate: CapabilityGate }) {
  if (!gate.reason) return null;
  const Icon = gate.disabled ? IconBan : IconAlertTriangle;
  return <Icon size={14} color={`var(--mantine-color-${gate.disabled ? 'red' : 'orange'}-6)`} aria-hidden />;
}

/** Why the gate keeps writes off, for a table's row menu (undefined while writes are possible or uncertain). */
export function writesOffOf(gate: CapabilityGate): string | undefined {
  return gate.disabled ? `${gate.reason ?? 'Writes are off on this cluster'}.` : undefined;
}

/** writesOffOf the cluster's gate, for a screen that reads the gate for nothing else. */
export function useWritesOff(clusterId: string | undefined): string | undefined {
  return writesOffOf(useCapabilityGate(clusterId));
}
