'use client';
// Above the Triage table: the clusters whose queues cannot be judged now (not-judged.ts says which and why), each
// linking to its cluster, so an empty or short list is not read as a healthy fleet.
import { Alert, Anchor, List, Text } from '@mantine/core';
import Link from 'next/link';
import type { NotJudgedCluster } from './not-judged.ts';

export function NotJudgedNotice({ clusters }: { readonly clusters: readonly NotJudgedCluster[] }) {
  if (clusters.length === 0) return null;
  const one = clusters.length === 1;
  return (
    <Alert
      color="red"
      variant="light"
      mb="md"
      data-testid="triage-not-judged"
      title={`${one ? 'One cluster is' : `${clusters.length} clusters are`} not judged now`}
    >
      <Text size="sm" mb={4}>
        Consumer health needs fresh samples: the queues of a cluster that does not answer are not listed here, and its
        rows already shown keep the verdict of when they were last judged.
      </Text>
      <List size="sm">
        {clusters.map((cluster) => (
          <List.Item key={cluster.id} data-cluster={cluster.name}>
            <Anchor component={Link} href={`/clusters/${cluster.id}`} size="sm">
              {cluster.name}
            </Anchor>
            : {cluster.why}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
