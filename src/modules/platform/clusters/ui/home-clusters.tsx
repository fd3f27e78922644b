'use client';
// The home page's `home.empty` panel: with no clusters it points to registration, otherwise to the list.
import { Anchor, Button, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageSection } from '@/ui/parts/page-section.tsx';

export function HomeClusters() {
  const trpc = useTRPC();
  const clusters = useQuery(trpc.clusters.list.queryOptions({ sort: 'name', page: 1, pageSize: 1 }));
  if (!clusters.data) return null;
  if (clusters.data.total > 0) {
    return (
      <PageSection
        title="Clusters"
        description={`${clusters.data.total} cluster${clusters.data.total === 1 ? '' : 's'} registered.`}
      >
        <Anchor component={Link} href="/clusters">
          See all clusters
        </Anchor>
      </PageSection>
    );
  }
  return (
    <PageSection title="No clusters yet" description="Flotilla shows what it sees of your Artemis clusters.">
      <Text size="sm">
        Register your first cluster from one of its nodes: Flotilla probes it, finds the other nodes and tells you what
        it may do, before saving anything.
      </Text>
      <div>
        <Button component={Link} href="/clusters/new">
          Register your first cluster
        </Button>
      </div>
    </PageSection>
  );
}
