'use client';
// Configuration → Broker configuration of a cluster: the current revision and its drift, desired against live per
// node (live on the cluster's `config` signals, polling while the stream is down), then the document — Declared
// (editor and form), History, Recommended — and the plan preview and apply, with the last runs below.
import { Alert, Badge, Button, Group, Paper, Stack, Tabs, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams, usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { ClusterPicker } from '@/modules/platform/clusters/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { DataAge } from '@/ui/stream/data-age.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { plural, STATE_COLORS, type DriftState, type Overview } from './config-format.ts';
import { configPath } from './config-paths.ts';
import { DeclaredTab, originOf } from './declared-tab.tsx';
import { documentText } from './document-text.ts';
import type { Draft } from './draft.ts';
import { DriftTable } from './drift-table.tsx';
import { HistoryTab } from './history-tab.tsx';
import { PlanDialog } from './plan-dialog.tsx';
import { RecommendedTab } from './recommended-tab.tsx';
import { RunsTable } from './runs-table.tsx';

const TABS = ['declared', 'history', 'recommended'] as const;
type Tab = (typeof TABS)[number];
const tabOf = (text: string | null): Tab => TABS.find((tab) => tab === text) ?? 'declared';

function RevisionHeader({ overview }: { overview: Overview }) {
  const { revision, drift } = overview;
  const counts = drift.reduce<Partial<Record<DriftState, number>>>(
    (sum, row) => ({ ...sum, [row.state]: (sum[row.state] ?? 0) + 1 }),
    {},
  );
  return (
    <Paper withBorder p="md" radius="md" data-testid="config-header">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          {revision ? (
            <>
              <Text fw={600} data-testid="current-revision" data-revision={String(revision.number)}>
                Revision {revision.number}
              </Text>
              <Text size="sm">
                {revision.author}, <TimeAgo iso={revision.createdAt} inline /> ({revision.source}): {revision.comment}
              </Text>
            </>
          ) : (
            <>
              <Text fw={600} data-testid="current-revision" data-revision="0">
                Nothing declared yet
              </Text>
              <Text size="sm" c="dimmed">
                Adopt the live configuration, or write the document below, and save it as revision 1.
              </Text>
            </>
          )}
          {overview.lastRun && (
            <Text size="sm" c="dimmed">
              Last apply: revision {overview.lastRun.revision}, {overview.lastRun.status} by {overview.lastRun.actor}{' '}
              <TimeAgo iso={overview.lastRun.startedAt} inline />
              {overview.lastRun.error ? ` — ${overview.lastRun.error}` : ''}
            </Text>
          )}
        </Stack>
        <Stack gap={4} align="flex-end" data-testid="drift-summary" data-drifted={String(overview.driftedCount)}>
          <Text size="sm" fw={600}>
            {overview.driftedCount === 0
              ? drift.length === 0
                ? 'No drift evaluated yet'
                : 'Every declared item in sync'
              : `${plural(overview.driftedCount, 'item', 'items')} drifted or missing`}
          </Text>
          <Group gap={4}>
            {(Object.keys(STATE_COLORS) as DriftState[])
              .filter((state) => counts[state])
              .map((state) => (
                <Badge key={state} color={STATE_COLORS[state]} variant="light">
                  {state} {counts[state]}
                </Badge>
              ))}
          </Group>
          {overview.evaluatedAt && (
            <Text size="xs" c="dimmed">
              Drift evaluated <TimeAgo iso={overview.evaluatedAt} inline />
            </Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

export function ConfigScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const live = useLive(['config']);
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const overview = useQuery({ ...trpc.brokerconfig.overview.queryOptions({ clusterId }), ...live });
  const schema = useQuery({ ...trpc.brokerconfig.schema.queryOptions({ clusterId }), staleTime: Infinity });
  // The viewer's own change; until there is one (and again after a save) the draft is the current revision.
  const [edited, setDraft] = useState<Draft | undefined>(undefined);
  // After a save: the revision the draft waits for, so it does not start again from the one before.
  const [savedAs, setSavedAs] = useState(0);
  const [planning, setPlanning] = useState(false);
  const tab = tabOf(params.get('tab'));
  const setTab = (next: Tab) => {
    const query = new URLSearchParams(params.toString());
    if (next === 'declared') query.delete('tab');
    else query.set('tab', next);
    const text = query.toString();
    router.replace(text ? `${pathname}?${text}` : pathname, { scroll: false });
  };

  const revision = overview.data?.revision;
  const currentNumber = revision?.number ?? 0;
  const currentText = revision ? documentText(revision.document) : undefined;
  const draft: Draft | undefined =
    edited ??
    (overview.data && currentNumber >= savedAs
      ? { text: currentText ?? '{}\n', baseRevision: currentNumber, origin: originOf(currentNumber) }
      : undefined);

  const load = (text: string, origin: string) => {
    setDraft({ text, baseRevision: currentNumber, origin });
    setTab('declared');
  };
  const onSaved = (number: number) => {
    setDraft(undefined);
    setSavedAs(number);
    void queryClient.invalidateQueries({ queryKey: trpc.brokerconfig.pathKey() });
  };

  if (cluster.isError) return <ProblemView error={cluster.error} onRetry={() => void cluster.refetch()} />;
  return (
    <>
      <PageHeader
        title="Broker configuration"
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
        ]}
        description="The cluster's address settings, security settings, diverts, bridges and queues as a reviewed document: saved as revisions, previewed as a plan per node, applied canary first, and checked for drift."
        actions={
          <>
            <Button onClick={() => setPlanning(true)} disabled={!revision} data-testid="preview-plan">
              Preview plan
            </Button>
            <ClusterPicker
              value={clusterId}
              onChange={(picked) => picked && picked !== clusterId && router.push(configPath(picked))}
              w={240}
            />
          </>
        }
      />
      <Stack gap="md">
        {overview.isError && <ProblemView error={overview.error} onRetry={() => void overview.refetch()} />}
        {overview.data && <RevisionHeader overview={overview.data} />}
        <PageSection
          title="Desired against live, per node"
          description="Each declared item on each live node: in sync, drifted (the fields that differ, declared against live), missing, or unverifiable."
        >
          <DataAge readAt={overview.data?.evaluatedAt ?? undefined} refreshedWhen="drift is evaluated again" />
          <DriftTable
            rows={overview.data?.drift}
            source={overview}
            bridgeFieldsVerified={overview.data?.bridgeFieldsVerified ?? []}
          />
        </PageSection>
        <Tabs value={tab} onChange={(value) => setTab(tabOf(value))} keepMounted={false}>
          <Tabs.List aria-label="The declared document">
            <Tabs.Tab value="declared">Declared</Tabs.Tab>
            <Tabs.Tab value="history">History</Tabs.Tab>
            <Tabs.Tab value="recommended">Recommended</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="declared" pt="md">
            {draft ? (
              <DeclaredTab
                clusterId={clusterId}
                draft={draft}
                current={{ number: currentNumber, text: currentText }}
                schema={schema.data?.schema}
                onDraft={setDraft}
                onDiscard={() => setDraft(undefined)}
                onSaved={onSaved}
              />
            ) : (
              overview.isPending && <Alert variant="light">Reading the current revision…</Alert>
            )}
          </Tabs.Panel>
          <Tabs.Panel value="history" pt="md">
            <HistoryTab
              clusterId={clusterId}
              schema={schema.data?.schema}
              live={live}
              onRestore={(number, text) => load(text, `revision ${String(number)} restored (not saved)`)}
            />
          </Tabs.Panel>
          <Tabs.Panel value="recommended" pt="md">
            <RecommendedTab
              clusterId={clusterId}
              live={live}
              onTake={(title, text) => load(text, `recommendation taken: ${title} (not saved)`)}
            />
          </Tabs.Panel>
        </Tabs>
        <PageSection title="Apply runs" description="The latest applies of this cluster, newest first.">
          <RunsTable clusterId={clusterId} live={live} />
        </PageSection>
      </Stack>
      {planning && <PlanDialog clusterId={clusterId} onClose={() => setPlanning(false)} />}
    </>
  );
}
