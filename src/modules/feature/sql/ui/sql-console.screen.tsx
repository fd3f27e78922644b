'use client';
// The SQL console of a cluster: one editor over three sources of the same shape (the message index, a live read of
// the brokers, a tail of either). The query and its source are in the URL, so a query is a link that runs again;
// Run (or Ctrl/Cmd+Enter) pushes it. A syntax error is said in words and its token underlined in the editor. Above
// the rows, always: every bound reached, what the source cannot see, and how old the answer is.
import { Alert, Button, Group, Kbd, Paper, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { IconCamera, IconPlayerPlayFilled } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { ClusterPicker } from '@/modules/platform/clusters/ui.ts';
import { SavedQueriesButton } from './saved-queries.tsx';
import { sqlConsolePath, subscriptionsPath, type SqlSource } from './sql-paths.ts';
import { syntaxErrorOf } from './sql-problem.ts';
import { SqlAnswer } from './sql-answer.tsx';
import { TailView } from './tail-view.tsx';
import { useSqlTail } from './use-sql-tail.ts';
import { useSqlUrl } from './use-sql-url.ts';

// CodeMirror measures the DOM: loaded in the browser only, a block of the same height standing in meanwhile.
const SqlEditor = dynamic(() => import('./sql-editor.tsx'), {
  ssr: false,
  loading: () => <Skeleton height={120} data-testid="sql-editor-loading" />,
});

const EXAMPLE = 'SELECT id, address, node, time FROM "#" ORDER BY time DESC LIMIT 100';
const NO_NAMES = { addresses: [], propertyKeys: [] };

export function SqlConsoleScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const router = useRouter();
  const trpc = useTRPC();
  const url = useSqlUrl();
  const [text, setText] = useState(url.sql || EXAMPLE);
  // Back and forward, or a link opened in place, bring their own query into the editor.
  const [shownSql, setShownSql] = useState(url.sql);
  if (url.sql !== shownSql) {
    setShownSql(url.sql);
    if (url.sql) setText(url.sql);
  }

  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const names = useQuery({ ...trpc.sql.completions.queryOptions({ clusterId }), staleTime: 60_000 });
  const reading = url.source !== 'tail' && url.sql !== '';
  const answer = useQuery({
    ...trpc.sql.query.queryOptions({ clusterId, sql: url.sql, source: url.source === 'live' ? 'live' : 'index' }),
    enabled: reading,
    // A query runs when it is asked for, not again behind the viewer's back.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
    placeholderData: keepPreviousData,
  });
  const tail = useSqlTail(clusterId, url.sql, url.tailOf, url.source === 'tail' && url.sql !== '');
  const failure = url.source === 'tail' ? tail.error : reading ? answer.error : undefined;
  const syntaxError = syntaxErrorOf(failure);
  const clusterName = cluster.data?.name ?? 'Cluster';

  const run = (source: SqlSource = url.source) => {
    const sql = text.trim();
    if (!sql) return;
    // The same query again is a new read (a link pushed twice would not be).
    if (sql === url.sql && source === url.source && source !== 'tail') void answer.refetch();
    else url.show({ sql, source, tailOf: url.tailOf });
  };

  if (cluster.isError) return <ProblemView error={cluster.error} onRetry={() => void cluster.refetch()} />;
  return (
    <>
      <PageHeader
        title="SQL console"
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: clusterName, href: `/clusters/${clusterId}` },
        ]}
        description="Where did that message go: one SELECT over the message index, a live read of every serving node, or a tail of either."
        actions={
          <>
            <ClusterPicker
              value={clusterId}
              onChange={(picked) =>
                picked &&
                picked !== clusterId &&
                router.push(sqlConsolePath(picked, { sql: url.sql, source: url.source }))
              }
              w={240}
            />
            <SavedQueriesButton
              current={{ sql: text.trim(), source: url.source }}
              onOpen={(saved) => {
                setText(saved.sql);
                url.show({ sql: saved.sql, source: saved.source, tailOf: url.tailOf });
              }}
            />
            <Button
              component={Link}
              href={subscriptionsPath(clusterId)}
              variant="default"
              leftSection={<IconCamera size={16} />}
            >
              Capture and sampling
            </Button>
          </>
        }
      />
      <Stack gap="sm">
        <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
          <SqlEditor
            value={text}
            onChange={setText}
            onRun={() => run()}
            names={names.data ?? NO_NAMES}
            syntaxError={syntaxError}
          />
        </Paper>
        <Group justify="space-between">
          <Group gap="sm">
            <SegmentedControl
              aria-label="Source"
              data={[
                { value: 'index', label: 'Index' },
                { value: 'live', label: 'Live' },
                { value: 'tail', label: 'Tail' },
              ]}
              value={url.source}
              onChange={(value) => run(value)}
            />
            {url.source === 'tail' && (
              <SegmentedControl
                aria-label="Tail of"
                size="xs"
                data={[
                  { value: 'index', label: 'of the index' },
                  { value: 'live', label: 'of the brokers' },
                ]}
                value={url.tailOf}
                onChange={(value) => url.show({ sql: text.trim(), source: 'tail', tailOf: value })}
              />
            )}
          </Group>
          <Group gap="xs">
            <Text size="xs" c="dimmed">
              <Kbd size="xs">Ctrl</Kbd> + <Kbd size="xs">Enter</Kbd>
            </Text>
            <Button
              leftSection={<IconPlayerPlayFilled size={14} />}
              onClick={() => run()}
              loading={reading && answer.isFetching}
              disabled={!text.trim()}
            >
              {url.source === 'tail' ? 'Start tail' : 'Run'}
            </Button>
          </Group>
        </Group>
        {syntaxError ? (
          <Alert color="red" title="The query is not valid" data-testid="sql-syntax-error">
            <Text size="sm">{syntaxError.message}</Text>
            {syntaxError.token && (
              <Text size="sm" mt={4}>
                At <code data-testid="sql-syntax-token">{syntaxError.token}</code>, marked in the editor.
              </Text>
            )}
          </Alert>
        ) : failure ? (
          <ProblemView error={failure} onRetry={url.source === 'tail' ? undefined : () => void answer.refetch()} />
        ) : null}
        {!url.sql ? (
          <Text size="sm" c="dimmed" data-testid="sql-hint">
            Write a SELECT and run it. FROM names an address or a pattern (<code>orders.*</code>, <code>orders.#</code>
            ); WHERE reads headers, <code>properties.key</code>, body paths, time and node.
          </Text>
        ) : url.source === 'tail' ? (
          <TailView tail={tail} fileName={`sql-tail-${clusterName}`} />
        ) : (
          !answer.isError &&
          answer.data && (
            <SqlAnswer answer={answer.data} isFetching={answer.isFetching} fileName={`sql-${clusterName}`} />
          )
        )}
      </Stack>
    </>
  );
}
