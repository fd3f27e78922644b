'use client';
// Routing → Builder (contributed by brokerconfig to routing.tabs): the cluster's declared document — its current
// revision — drawn as the routing graph, and a draft of it edited there: a divert, a queue or a bridge added, an item
// removed. The draft's changes against the revision are listed as they are made; saving authors a new revision with a
// comment (brokerconfig's own save, config:write) and writes nothing to a broker: applying stays on the Broker
// configuration screen, linked once the revision is saved. A viewer sees the document read-only.
import { Alert, Anchor, Button, Grid, Group, List, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useMemo, useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { changeText, plural } from '../config-format.ts';
import { configPath } from '../config-paths.ts';
import { documentText } from '../document-text.ts';
import { SaveDialog } from '../save-dialog.tsx';
import { diffDocuments } from '../../server/model/document-diff.ts';
import { EMPTY_DOCUMENT, type ConfigDocument } from '../../server/model/document.ts';
import { useConfigWrite } from './config-write.ts';
import { DeclaredGraph } from './declared-graph.tsx';
import { type BuilderSection } from './edit-document.ts';
import { EntryForm, FORMS } from './entry-forms.tsx';
import { SelectedEntry } from './selected-entry.tsx';

interface BuilderDraft {
  readonly document: ConfigDocument;
  /** The revision it started from: a save names it, so one saved meanwhile is a 409 instead of an overwrite. */
  readonly baseRevision: number;
}

const SECTIONS: readonly BuilderSection[] = ['diverts', 'queues', 'bridges'];

export function BuilderTab({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const live = useLive(['config']);
  const overview = useQuery({ ...trpc.brokerconfig.overview.queryOptions({ clusterId }), ...live });
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const access = useConfigWrite(clusterId, cluster.data?.environment?.id);
  const mayWrite = access === true;
  const [edited, setEdited] = useState<BuilderDraft | undefined>(undefined);
  const [section, setSection] = useState<BuilderSection>('diverts');
  const [selected, setSelected] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<number | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(undefined);
  const onFailed = useCallback((error: unknown) => setFailure(error), []);

  const revision = overview.data?.revision;
  const currentNumber = revision?.number ?? 0;
  const current = revision?.document ?? EMPTY_DOCUMENT;
  const draft = edited ?? { document: current, baseRevision: currentNumber };
  const changes = useMemo(() => diffDocuments(current, draft.document), [current, draft.document]);

  const edit = (document: ConfigDocument) => {
    setSaved(undefined);
    setEdited({ document, baseRevision: draft.baseRevision });
  };

  if (overview.isError) return <ProblemView error={overview.error} onRetry={() => void overview.refetch()} />;
  if (!overview.data) return <Alert variant="light">Reading the declared document…</Alert>;
  return (
    <Stack gap="sm" data-testid="builder-tab">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Text fw={600} data-testid="builder-revision" data-revision={String(currentNumber)}>
            {revision ? `Declared: revision ${String(revision.number)}` : 'Nothing declared yet'}
          </Text>
          <Text size="sm" c="dimmed">
            {revision ? (
              <>
                {revision.author}, <TimeAgo iso={revision.createdAt} inline />: {revision.comment}.{' '}
              </>
            ) : null}
            The declared document as the routing graph. Saving authors a revision; nothing reaches a broker until its
            plan is applied on{' '}
            <Anchor component={Link} href={configPath(clusterId)} size="sm">
              Broker configuration
            </Anchor>
            .
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            variant="default"
            disabled={changes.length === 0 && draft.baseRevision === currentNumber}
            onClick={() => {
              setEdited(undefined);
              setSelected(null);
              setFailure(undefined);
            }}
          >
            Discard changes
          </Button>
          <Button
            disabled={!mayWrite || changes.length === 0}
            onClick={() => {
              setFailure(undefined);
              setSaving(true);
            }}
          >
            Save as revision…
          </Button>
        </Group>
      </Group>
      {access === false && (
        <Alert variant="light" color="gray" data-testid="builder-read-only">
          Read-only: saving a revision of this cluster’s document needs the config:write permission.
        </Alert>
      )}
      {draft.baseRevision !== currentNumber && (
        <Alert color="orange" variant="light" data-testid="builder-stale">
          Revision {currentNumber} was saved since this draft started from revision {draft.baseRevision}: saving would
          overwrite it, so the save is refused.{' '}
          <Anchor component="button" size="sm" onClick={() => setEdited(undefined)}>
            Start again from revision {currentNumber}
          </Anchor>
        </Alert>
      )}
      {saved !== undefined && (
        <Alert color="teal" variant="light" data-testid="builder-saved" data-revision={String(saved)}>
          Saved as revision {saved}; nothing was written to a broker.{' '}
          <Anchor component={Link} href={configPath(clusterId)} data-testid="builder-plan-link">
            Preview and apply its plan on Broker configuration
          </Anchor>
        </Alert>
      )}
      {failure !== undefined && !saving && (
        <Alert color="red" title={problemOf(failure).title} withCloseButton onClose={() => setFailure(undefined)}>
          {problemOf(failure).detail}
        </Alert>
      )}
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Paper withBorder radius="md" data-testid="builder-graph">
            <DeclaredGraph document={draft.document} selected={selected} onSelect={setSelected} />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="sm">
            <SelectedEntry
              itemId={selected}
              document={draft.document}
              disabled={!mayWrite}
              onRemove={(document) => {
                setSelected(null);
                edit(document);
              }}
            />
            <Paper withBorder p="sm" radius="md" data-testid="builder-changes" data-count={String(changes.length)}>
              <Text size="sm" fw={600}>
                {changes.length === 0
                  ? `No change to revision ${String(currentNumber)}`
                  : `The draft changes ${plural(changes.length, 'item', 'items')}`}
              </Text>
              <List size="sm" ff="monospace">
                {changes.map((change) => (
                  <List.Item key={`${change.section}/${change.key}`}>{changeText(change)}</List.Item>
                ))}
              </List>
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <SegmentedControl
            value={section}
            onChange={(value) => setSection(SECTIONS.find((known) => known === value) ?? 'diverts')}
            data={SECTIONS.map((known) => ({ value: known, label: `Add a ${FORMS[known].noun}` }))}
            aria-label="What to add"
            w="fit-content"
          />
          <EntryForm
            key={section}
            section={section}
            document={draft.document}
            disabled={!mayWrite}
            onAdded={(document) => edit(document)}
          />
        </Stack>
      </Paper>
      {saving && (
        <SaveDialog
          clusterId={clusterId}
          draft={{
            text: documentText(draft.document),
            baseRevision: draft.baseRevision,
            origin: 'the Builder',
          }}
          document={draft.document}
          onClose={() => setSaving(false)}
          onFailed={onFailed}
          onSaved={(answer) => {
            setSaving(false);
            setFailure(undefined);
            setEdited(undefined);
            setSelected(null);
            setSaved(answer.number);
            void queryClient.invalidateQueries({ queryKey: trpc.brokerconfig.pathKey() });
          }}
        />
      )}
    </Stack>
  );
}
