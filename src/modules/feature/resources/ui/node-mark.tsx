'use client';
// The resources module's `topology.node.marks` mark: a node's warnings (paging, full addresses, memory or disk
// near its limit) as one badge on the topology, linking to the node's page.
import { Anchor, Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { FACTS_REFRESH_MS } from './cluster-node-facts-panel.tsx';
import { nodePath } from './resource-paths.ts';

export function NodeMark({ clusterId, nodeId }: PanelSlotProps['topology.node.marks']) {
  const trpc = useTRPC();
  const live = useLive(['queues']);
  // One query for the cluster: every node's mark shares it.
  const facts = useQuery({
    ...trpc.resources.facts.queryOptions({ clusterId }),
    meta: live.meta,
    refetchInterval: live.refetchInterval === false ? FACTS_REFRESH_MS : live.refetchInterval,
  });
  const node = facts.data?.nodes.find((candidate) => candidate.nodeId === nodeId);
  if (!node) return null;
  const warnings = node.ok ? node.warnings : [];
  const danger = warnings.some((warning) => warning.level === 'danger');
  return (
    <Anchor component={Link} href={nodePath(clusterId, nodeId)} size="xs">
      <Badge
        size="sm"
        variant="light"
        color={!node.ok ? 'gray' : danger ? 'red' : warnings.length > 0 ? 'orange' : 'teal'}
        data-testid="node-mark"
      >
        {!node.ok ? 'no facts' : warnings.length > 0 ? `${String(warnings.length)} warnings` : 'facts'}
      </Badge>
    </Anchor>
  );
}
