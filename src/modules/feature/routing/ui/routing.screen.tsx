'use client';
// Messaging → Routing of a cluster: the graph of its addresses, queues, diverts, bridges and cluster connections merged
// over the nodes (Graph), "where would this message go?" (Where), its diverts with create and remove (Diverts), and
// the routing.tabs slot's contributions (brokerconfig's Builder) as further tabs. The tab is in the URL (`?tab=`).
import { Tabs } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams, usePathname, useRouter, useSearchParams } from 'next/navigation';
import type { ComponentType } from 'react';
import { ClusterPicker } from '@/modules/platform/clusters/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useContributions } from '@/ui/slots/slot.tsx';
import { DIVERTS_TAB } from './diverts/divert-paths.ts';
import { DivertsTab } from './diverts/diverts-tab.tsx';
import { GraphPanel } from './graph/graph-panel.tsx';
import { routingPath } from './routing-paths.ts';
import { WhereTab } from './where/where-tab.tsx';

const OWN_TABS = ['graph', 'where', DIVERTS_TAB] as const;

export function RoutingScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const trpc = useTRPC();
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const contributed = useContributions('routing.tabs');
  const tabs: readonly string[] = [...OWN_TABS, ...contributed.map((tab) => tab.id)];
  const asked = params.get('tab');
  const tab = asked && tabs.includes(asked) ? asked : 'graph';
  const setTab = (next: string | null) => {
    const query = new URLSearchParams(params.toString());
    if (!next || next === 'graph') query.delete('tab');
    else query.set('tab', next);
    const text = query.toString();
    router.replace(text ? `${pathname}?${text}` : pathname, { scroll: false });
  };

  if (cluster.isError) return <ProblemView error={cluster.error} onRetry={() => void cluster.refetch()} />;
  return (
    <>
      <PageHeader
        title="Routing"
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
        ]}
        description="Where messages go: the cluster's addresses, queues, diverts, bridges and cluster connections merged over its nodes, with the dead-letter and expiry routes. An item some node lacks is marked missing: a message then routes differently depending on the node it reaches."
        actions={
          <ClusterPicker
            value={clusterId}
            onChange={(picked) => picked && picked !== clusterId && router.push(routingPath(picked))}
            w={240}
          />
        }
      />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List aria-label="Routing">
          <Tabs.Tab value="graph">Graph</Tabs.Tab>
          <Tabs.Tab value="where">Where would it go?</Tabs.Tab>
          <Tabs.Tab value={DIVERTS_TAB}>Diverts</Tabs.Tab>
          {contributed.map((contribution) => (
            <Tabs.Tab key={contribution.id} value={contribution.id}>
              {contribution.title ?? contribution.id}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="graph" pt="md">
          <GraphPanel clusterId={clusterId} />
        </Tabs.Panel>
        <Tabs.Panel value="where" pt="md">
          <WhereTab clusterId={clusterId} />
        </Tabs.Panel>
        <Tabs.Panel value={DIVERTS_TAB} pt="md">
          <DivertsTab clusterId={clusterId} />
        </Tabs.Panel>
        {contributed.map((contribution) => {
          const Component = contribution.component as ComponentType<{ clusterId: string }>;
          return (
            <Tabs.Panel key={contribution.id} value={contribution.id} pt="md">
              <Component clusterId={clusterId} />
            </Tabs.Panel>
          );
        })}
      </Tabs>
    </>
  );
}
