'use client';
// Alerts → Rules → New rule / a rule: the editor, with a live preview beside it. The condition kinds and their
// parameter forms come from the API (any enabled module's condition appears), then scope, queue pattern, severity,
// for-duration, labels, channels and whether it is on. A second after the last change the editor asks the API for
// a dry run of the rule as it stands (audited as a dry run, nothing saved) and shows what it would fire on now in
// every cluster of its scope, before any for-duration, or why the API refuses it. Save creates or changes the rule;
// Delete (held) removes it with its alerts.
import {
  Alert,
  Button,
  Grid,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTRPC, type RouterInputs, type RouterOutputs } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { SEVERITIES, useAlertWrite, WriteGate } from './alerting-parts.tsx';
import { defaultsOf, missingOf, type FormValues, type JsonSchema } from './schema-fields.ts';
import { SchemaForm } from './schema-form.tsx';

type Rule = RouterOutputs['alerting']['getRule'];
type Hit = RouterOutputs['alerting']['previewRule']['wouldFire'][number];
type CreateInput = RouterInputs['alerting']['createRule'];
type Scope = 'all' | 'environment' | 'cluster';

interface Draft {
  readonly name: string;
  readonly kind: string | null;
  readonly params: FormValues;
  readonly scope: Scope;
  readonly clusterId: string | null;
  readonly environmentId: string | null;
  readonly pattern: string;
  readonly severity: (typeof SEVERITIES)[number];
  readonly forSeconds: number;
  readonly labels: string;
  readonly channelIds: string[];
  readonly enabled: boolean;
}

const EMPTY: Draft = {
  name: '',
  kind: null,
  params: {},
  scope: 'all',
  clusterId: null,
  environmentId: null,
  pattern: '',
  severity: 'warning',
  forSeconds: 0,
  labels: '',
  channelIds: [],
  enabled: true,
};

function draftOf(rule: Rule): Draft {
  return {
    name: rule.name,
    kind: rule.condition.kind,
    params: rule.condition.params,
    scope: rule.clusterId ? 'cluster' : rule.environmentId ? 'environment' : 'all',
    clusterId: rule.clusterId,
    environmentId: rule.environmentId,
    pattern: rule.pattern ?? '',
    severity: SEVERITIES.find((severity) => severity === rule.severity) ?? 'warning',
    forSeconds: rule.forSeconds,
    labels: Object.entries(rule.labels)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
    channelIds: rule.channelIds,
    enabled: rule.enabled,
  };
}

/** `key=value` lines; a line without `=` is a label with an empty value. */
function labelsOf(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const at = line.indexOf('=');
        return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
      }),
  );
}

/** What the API takes, or what is still missing. */
function inputOf(draft: Draft, schema: JsonSchema | undefined): { input?: CreateInput; missing: string[] } {
  const missing = [
    ...(draft.name.trim() ? [] : ['Name']),
    ...(draft.kind ? [] : ['Condition']),
    ...missingOf(schema, draft.params),
    ...(draft.scope === 'cluster' && !draft.clusterId ? ['Cluster'] : []),
    ...(draft.scope === 'environment' && !draft.environmentId ? ['Environment'] : []),
  ];
  if (missing.length > 0 || !draft.kind) return { missing };
  return {
    missing,
    input: {
      name: draft.name.trim(),
      condition: { kind: draft.kind, params: draft.params },
      clusterId: draft.scope === 'cluster' ? draft.clusterId : null,
      environmentId: draft.scope === 'environment' ? draft.environmentId : null,
      pattern: draft.pattern.trim() || null,
      severity: draft.severity,
      forSeconds: draft.forSeconds,
      labels: labelsOf(draft.labels),
      channelIds: draft.channelIds,
      enabled: draft.enabled,
      dryRun: false,
    },
  };
}

const HIT_COLUMNS: readonly Column<Hit>[] = [
  { id: 'cluster', header: 'Cluster', cell: (hit) => hit.cluster },
  { id: 'subject', header: 'Subject', cell: (hit) => hit.subject },
  {
    id: 'value',
    header: 'Value',
    align: 'right',
    width: 110,
    cell: (hit) => (hit.value === null ? '—' : hit.value.toLocaleString('en')),
  },
];

/** What the dry run would fire on, in the one table (searched, sorted and paged here: the answer is whole). */
function WouldFireTable({ rows }: { rows: readonly Hit[] }) {
  const list = useLocalListState({ sort: 'subject', pageSize: 10 });
  const query = localQuery(rows, list, {
    text: (hit) => `${hit.cluster} ${hit.subject}`,
    sortValue: (hit, field) => (field === 'value' ? (hit.value ?? 0) : field === 'cluster' ? hit.cluster : hit.subject),
  });
  return (
    <DataTable
      tableId="alert-rule-preview"
      label="Would fire"
      columns={HIT_COLUMNS}
      rowKey={(hit) => `${hit.clusterId}:${hit.subject}`}
      rowAttributes={(hit) => ({ 'data-testid': 'would-fire', 'data-subject': hit.subject })}
      list={list}
      query={query}
      minWidth={320}
      searchPlaceholder="Search subjects"
      empty={{ title: 'Nothing would fire' }}
    />
  );
}

function Preview({ input, missing }: { input?: CreateInput; missing: string[] }) {
  const trpc = useTRPC();
  const [settled] = useDebouncedValue(input ? JSON.stringify(input) : undefined, 800);
  // A read (nothing saved, nothing audited), asked again for each settled draft; not on focus, as drafts do not age.
  const preview = useQuery({
    ...trpc.alerting.previewRule.queryOptions(JSON.parse(settled ?? '{}') as CreateInput),
    enabled: settled !== undefined,
    retry: false,
    refetchOnWindowFocus: false,
    placeholderData: keepPreviousData,
  });
  const wouldFire = preview.data?.wouldFire ?? [];
  return (
    <Paper withBorder p="sm" radius="md" data-testid="rule-preview">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={4}>Would fire now</Title>
          {preview.isFetching && <Loader size="xs" />}
        </Group>
        {!input ? (
          <Text size="sm" c="dimmed">
            Fill in {missing.join(', ')} to see what this rule would fire on.
          </Text>
        ) : preview.isError ? (
          <ProblemView error={preview.error} />
        ) : preview.data ? (
          <>
            <Text size="sm" data-testid="preview-count" data-count={wouldFire.length}>
              {wouldFire.length === 0
                ? 'Nothing: the condition holds nowhere in its scope right now.'
                : `${wouldFire.length} ${wouldFire.length === 1 ? 'subject' : 'subjects'} right now, before the for-duration (a dry run: nothing is saved).`}
            </Text>
            {wouldFire.length > 0 && <WouldFireTable rows={wouldFire} />}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Judging…
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function Editor({ rule }: { rule: Rule | undefined }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const access = useAlertWrite();
  const [draft, setDraft] = useState<Draft>(() => (rule ? draftOf(rule) : EMPTY));
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const conditions = useQuery(trpc.alerting.conditions.queryOptions({}));
  const clusters = useQuery(trpc.clusters.list.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  const environments = useQuery(trpc.environments.list.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  const channels = useQuery(trpc.alerting.listChannels.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  const condition = conditions.data?.items.find((item) => item.kind === draft.kind);
  const schema = condition?.params as JsonSchema | undefined;
  const { input, missing } = inputOf(draft, schema);
  const done = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.alerting.listRules.queryKey() });
    router.push('/alerts/rules');
  };
  const create = useMutation(trpc.alerting.createRule.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.alerting.updateRule.mutationOptions({ onSuccess: done }));
  const remove = useMutation(trpc.alerting.deleteRule.mutationOptions({ onSuccess: done }));
  const save = () => {
    if (!input) return;
    if (rule) update.mutate({ ...input, id: rule.id });
    else create.mutate(input);
  };
  const saveError = create.error ?? update.error ?? remove.error;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Stack
          gap="sm"
          component="form"
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <TextInput
            label="Name"
            required
            value={draft.name}
            onChange={(event) => set({ name: event.currentTarget.value })}
          />
          <Select
            label="Condition"
            required
            placeholder="Pick a condition"
            data={(conditions.data?.items ?? []).map((item) => ({ value: item.kind, label: item.kind }))}
            value={draft.kind}
            onChange={(kind) => {
              const next = conditions.data?.items.find((item) => item.kind === kind);
              set({ kind, params: defaultsOf(next?.params) });
            }}
            description={condition?.description}
            allowDeselect={false}
          />
          <SchemaForm schema={schema} values={draft.params} onChange={(params) => set({ params })} />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Scope
            </Text>
            <SegmentedControl
              value={draft.scope}
              onChange={(scope) => set({ scope: scope })}
              data={[
                { value: 'all', label: 'Every cluster' },
                { value: 'environment', label: 'An environment' },
                { value: 'cluster', label: 'A cluster' },
              ]}
              aria-label="Scope"
            />
          </Stack>
          {draft.scope === 'cluster' && (
            <Select
              label="Cluster"
              required
              data={(clusters.data?.items ?? []).map((cluster) => ({ value: cluster.id, label: cluster.name }))}
              value={draft.clusterId}
              onChange={(clusterId) => set({ clusterId })}
              searchable
            />
          )}
          {draft.scope === 'environment' && (
            <Select
              label="Environment"
              required
              data={(environments.data?.items ?? []).map((environment) => ({
                value: environment.id,
                label: environment.name,
              }))}
              value={draft.environmentId}
              onChange={(environmentId) => set({ environmentId })}
            />
          )}
          <TextInput
            label="Queue pattern"
            description="Queue or address names the rule looks at (* any characters, ? one); empty: all"
            value={draft.pattern}
            onChange={(event) => set({ pattern: event.currentTarget.value })}
          />
          <Group grow align="flex-start">
            <Select
              label="Severity"
              data={[...SEVERITIES]}
              value={draft.severity}
              onChange={(severity) => set({ severity: severity ?? 'warning' })}
              allowDeselect={false}
            />
            <NumberInput
              label="For (seconds)"
              description="How long it must hold before it fires"
              min={0}
              max={86_400}
              allowDecimal={false}
              value={draft.forSeconds}
              onChange={(value) => set({ forSeconds: typeof value === 'number' ? value : 0 })}
            />
          </Group>
          <Textarea
            label="Labels"
            description="One per line, key=value; copied into every notification"
            autosize
            minRows={2}
            value={draft.labels}
            onChange={(event) => set({ labels: event.currentTarget.value })}
          />
          <MultiSelect
            label="Channels"
            description="Where its firing and resolution are sent"
            placeholder={channels.data?.items.length === 0 ? 'No channels yet' : 'Pick channels'}
            data={(channels.data?.items ?? []).map((channel) => ({
              value: channel.id,
              label: `${channel.name} (${channel.kind})`,
            }))}
            value={draft.channelIds}
            onChange={(channelIds) => set({ channelIds })}
          />
          <Switch
            label="Enabled"
            checked={draft.enabled}
            onChange={(event) => set({ enabled: event.currentTarget.checked })}
          />
          {saveError && <ProblemView error={saveError} />}
          <Group justify="space-between" align="flex-start">
            <Group>
              <WriteGate access={access}>
                <Button
                  type="submit"
                  disabled={!access.allowed || !input}
                  loading={create.isPending || update.isPending}
                >
                  {rule ? 'Save' : 'Create rule'}
                </Button>
              </WriteGate>
              <Button variant="default" onClick={() => router.push('/alerts/rules')}>
                Cancel
              </Button>
            </Group>
            {rule && access.allowed && (
              <HoldToConfirm
                action="Delete"
                count={1}
                noun={['rule', 'rules']}
                onConfirm={() => remove.mutate({ id: rule.id })}
              />
            )}
          </Group>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Preview input={input} missing={missing} />
        {rule?.builtIn && (
          <Alert variant="light" color="gray" mt="sm">
            A built-in rule ({rule.builtIn}), installed when its cluster was registered; edit it like any other.
          </Alert>
        )}
      </Grid.Col>
    </Grid>
  );
}

export function NewRuleScreen() {
  return (
    <>
      <PageHeader
        title="New alert rule"
        description="A condition over a scope, held for a while, sent to channels."
        crumbs={[{ label: 'Alert rules', href: '/alerts/rules' }]}
      />
      <Editor rule={undefined} />
    </>
  );
}

export function EditRuleScreen() {
  const trpc = useTRPC();
  const { ruleId } = useParams<{ ruleId: string }>();
  const rule = useQuery(trpc.alerting.getRule.queryOptions({ id: ruleId }));
  return (
    <>
      <PageHeader
        title={rule.data?.name ?? 'Alert rule'}
        description="Change the rule; the preview shows what it would fire on now."
        crumbs={[{ label: 'Alert rules', href: '/alerts/rules' }]}
      />
      {rule.isError && <ProblemView error={rule.error} />}
      {rule.data && <Editor key={rule.data.id} rule={rule.data} />}
      {rule.isPending && <Loader size="sm" />}
    </>
  );
}
