'use client';
// Admin → Governance: the content policy — its rules, its detectors, what each data class gets — edited as a draft,
// tried on a sample as each kind of caller would see it, then put in force as a new version (every read applies it
// at once); the findings no rule covers yet; and how much stored content an older version still masks.
import { Alert, Badge, Button, Checkbox, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { FindingsPanel } from './findings-panel.tsx';
import { draftBody, draftOf, type Catalogue, type Draft } from './policy-draft.ts';
import { RulesEditor } from './rules-editor.tsx';
import { SampleTester } from './sample-tester.tsx';

function DetectorsAndActions({
  draft,
  catalogue,
  onChange,
}: {
  draft: Draft;
  catalogue: Catalogue;
  onChange: (draft: Draft) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Stack gap={6} role="group" aria-label="Detectors">
        {catalogue.detectors.map((detector) => (
          <Checkbox
            key={detector.id}
            label={`${detector.id}: ${detector.description}`}
            description={detector.dataClass}
            checked={draft.detectors.includes(detector.id)}
            onChange={(event) =>
              onChange({
                ...draft,
                detectors: event.currentTarget.checked
                  ? [...draft.detectors, detector.id]
                  : draft.detectors.filter((id) => id !== detector.id),
              })
            }
          />
        ))}
      </Stack>
      <Stack gap={6} role="group" aria-label="Actions per class">
        {catalogue.dataClasses.map((dataClass) => (
          <Select
            key={dataClass}
            label={dataClass}
            data={catalogue.actions}
            value={dataClass === 'credential' ? 'drop' : (draft.actions[dataClass] ?? 'mask')}
            disabled={dataClass === 'credential'}
            description={dataClass === 'credential' ? 'Always dropped, for everyone' : undefined}
            onChange={(value) => value && onChange({ ...draft, actions: { ...draft.actions, [dataClass]: value } })}
            allowDeselect={false}
          />
        ))}
      </Stack>
    </SimpleGrid>
  );
}

export function GovernanceScreen() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = useQuery(trpc.governance.policy.queryOptions());
  const remask = useQuery(trpc.governance.remask.queryOptions());
  const [draft, setDraft] = useState<Draft | undefined>();
  const save = useMutation(
    trpc.governance.savePolicy.mutationOptions({
      onSuccess: async () => {
        setDraft(undefined);
        await queryClient.invalidateQueries({ queryKey: trpc.governance.pathKey() });
      },
    }),
  );
  if (policy.isError) return <ProblemView error={policy.error} onRetry={() => void policy.refetch()} />;
  if (!policy.data) return <PageHeader title="Governance" description="Loading the content policy…" />;
  const { catalogue } = policy.data;
  const current = draft ?? draftOf(policy.data.policy);
  const changed = draft !== undefined;
  return (
    <>
      <PageHeader
        title="Governance"
        description="One content policy at every exit: screens, API and agents never show a card number by accident. Credentials are dropped for everyone; other classes are masked unless a holder of message:clear asks, and every such view is audited."
        actions={
          <Group gap="xs">
            <Badge variant="light" data-testid="policy-version">
              version {policy.data.policy.version} in force
            </Badge>
            <Button variant="default" disabled={!changed} onClick={() => setDraft(undefined)}>
              Discard changes
            </Button>
            <Button
              disabled={!changed}
              loading={save.isPending}
              onClick={() => save.mutate({ ...draftBody(current, catalogue), dryRun: false })}
            >
              Put in force as version {policy.data.policy.version + 1}
            </Button>
          </Group>
        }
      />
      {save.isError && <ProblemView error={save.error} />}
      {changed && (
        <Alert color="blue" mb="md" data-testid="draft-pending">
          You are editing a draft; nothing changes until it is put in force.
        </Alert>
      )}
      <Stack gap="lg">
        <PageSection
          title="Rules"
          description="Classify a header, a property, a JSON or XML path, or a text pattern, optionally on some addresses only."
        >
          <RulesEditor draft={current} catalogue={catalogue} onChange={(rules) => setDraft({ ...current, rules })} />
        </PageSection>
        <PageSection
          title="Detectors and actions"
          description="Detectors run on every value no rule classified; each class gets its action."
        >
          <DetectorsAndActions draft={current} catalogue={catalogue} onChange={setDraft} />
        </PageSection>
        <PageSection
          title="Test a sample"
          description="What a caller without and with message:clear would see under this draft. Nothing is stored."
        >
          <SampleTester draft={current} catalogue={catalogue} />
        </PageSection>
        <PageSection
          title="Findings"
          description="Detections in fields no rule covers; make a rule to classify the field everywhere."
        >
          <FindingsPanel
            ruleIds={new Set(current.rules.map((rule) => rule.id))}
            onMakeRule={(rule) => setDraft({ ...current, rules: [...current.rules, rule] })}
          />
        </PageSection>
        <PageSection
          title="Stored content"
          description="Rows masked by an older version, rewritten by the module that stores them."
        >
          {remask.data && remask.data.stores.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="remask-none">
              No module stores governed content yet: everything shown is governed when it is read, with the version in
              force.
            </Text>
          ) : (
            (remask.data?.stores ?? []).map((store) => (
              <Text key={store.id} size="sm">
                {store.title}: {store.remaining} rows left
              </Text>
            ))
          )}
        </PageSection>
      </Stack>
    </>
  );
}
