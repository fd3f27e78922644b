'use client';
// The routing graph of a live cluster: the address pattern (in the URL, `?pattern=`), how old the read is, the counts,
// the nodes that could not be read, and the graph with the facts of the selected item beside it. Live on the `queues`
// signals (address, queue and divert changes) and `config` (an applied configuration); polling while the stream is
// down. A graph beyond routing.max-graph-items is not drawn: the screen asks for a pattern instead.
import { Alert, Badge, Button, Grid, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { DataAge } from '@/ui/stream/data-age.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { RoutingItemFacts } from './item-facts.tsx';
import { RoutingGraphView } from './routing-graph-view.tsx';

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

/** The address pattern of the URL, and a setter that keeps the rest of the query (the tab). */
function usePattern(): [string, (pattern: string) => void] {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const pattern = params.get('pattern') ?? '';
  const setPattern = (next: string) => {
    const query = new URLSearchParams(params.toString());
    if (next.trim()) query.set('pattern', next.trim());
    else query.delete('pattern');
    const text = query.toString();
    router.replace(text ? `${pathname}?${text}` : pathname, { scroll: false });
  };
  return [pattern, setPattern];
}

function PatternFilter({ pattern, onPattern }: { pattern: string; onPattern: (pattern: string) => void }) {
  const [text, setText] = useState(pattern);
  const [shown, setShown] = useState(pattern);
  // The URL changed under the field (back, a link): the field follows it.
  if (shown !== pattern) {
    setShown(pattern);
    setText(pattern);
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onPattern(text);
      }}
    >
      <Group gap="xs" align="flex-end">
        <TextInput
          label="Address pattern"
          description="The broker's wildcards: `.` separates words, `*` is one word, `#` zero or more"
          placeholder="orders.#"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          w={360}
          data-testid="pattern-input"
        />
        <Button type="submit" variant="light" data-testid="pattern-apply">
          Filter
        </Button>
        {pattern && (
          <Button variant="subtle" onClick={() => onPattern('')} data-testid="pattern-clear">
            Show all
          </Button>
        )}
      </Group>
    </form>
  );
}

export function GraphPanel({
  clusterId,
  highlighted,
  height = 640,
}: {
  clusterId: string;
  highlighted?: ReadonlySet<string>;
  height?: number | string;
}) {
  const trpc = useTRPC();
  const [pattern, setPattern] = usePattern();
  const [selected, setSelected] = useState<string | null>(null);
  const graph = useQuery({
    ...trpc.routing.graph.queryOptions({ clusterId, pattern: pattern || undefined }),
    ...useLive(['queues', 'config']),
  });
  const data = graph.data;
  const failed = data?.nodes.filter((node) => !node.ok) ?? [];

  return (
    <Stack gap="sm">
      <PatternFilter pattern={pattern} onPattern={setPattern} />
      <DataAge readAt={data?.readAt} refreshedWhen="an address, queue or divert changes" />
      {graph.isError && <ProblemView error={graph.error} onRetry={() => void graph.refetch()} />}
      {data && (
        <Group gap="xs" data-testid="routing-counts">
          <Badge variant="light" color="blue">
            {plural(data.counts.addresses, 'address', 'addresses')}
          </Badge>
          <Badge variant="light" color="teal">
            {plural(data.counts.queues, 'queue', 'queues')}
          </Badge>
          <Badge variant="light" color="grape">
            {plural(data.counts.diverts, 'divert', 'diverts')}
          </Badge>
          <Badge variant="light" color="orange">
            {plural(data.counts.bridges, 'bridge', 'bridges')}
          </Badge>
          <Badge variant="light" color="cyan">
            {plural(data.counts.clusterConnections, 'cluster connection', 'cluster connections')}
          </Badge>
          <Text size="sm" c="dimmed">
            merged over {plural(data.nodes.length - failed.length, 'node', 'nodes')}
          </Text>
        </Group>
      )}
      {failed.map((node) => (
        <Alert key={node.nodeId} color="red" variant="light" title={`${node.nodeName} could not be read`}>
          {node.failure?.message ?? 'No answer'} — the graph shows the other nodes only, and marks nothing as missing on
          this one.
        </Alert>
      ))}
      {data?.tooLarge && (
        <Alert color="yellow" variant="light" title="Too large to draw" data-testid="routing-too-large">
          This {pattern ? 'filtered graph' : 'graph'} holds {plural(data.counts.addresses, 'address', 'addresses')},{' '}
          {plural(data.counts.queues, 'queue', 'queues')} and {plural(data.counts.diverts, 'divert', 'diverts')}: more
          than the {data.maxItems.toLocaleString('en')} items drawn at once. Give an address pattern above (e.g.{' '}
          <code>orders.#</code>) to draw part of it.
        </Alert>
      )}
      {data && !data.tooLarge && data.graph.items.length === 0 && (
        <Alert variant="light" data-testid="routing-empty">
          {pattern ? `No address matches ${pattern}.` : 'The cluster has no addresses to draw.'}
        </Alert>
      )}
      {data && !data.tooLarge && data.graph.items.length > 0 && (
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, md: selected ? 8 : 12 }}>
            <RoutingGraphView
              graph={data.graph}
              highlighted={highlighted}
              selected={selected}
              onSelect={setSelected}
              clusterId={clusterId}
              height={height}
            />
          </Grid.Col>
          {selected !== null && (
            <Grid.Col span={{ base: 12, md: 4 }}>
              <RoutingItemFacts graph={data.graph} itemId={selected} clusterId={clusterId} />
            </Grid.Col>
          )}
        </Grid>
      )}
    </Stack>
  );
}
