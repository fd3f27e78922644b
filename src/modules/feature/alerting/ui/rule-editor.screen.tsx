'use client';
// Alerts → Rules → New rule / a rule: the editor, with a live preview beside it (rule-preview.tsx). The condition
// kinds and their parameter forms come from the API (any enabled module's condition appears), then scope, queue
// pattern, severity, for-duration, labels, channels and whether it is on. Save creates or changes the rule; Delete
// (held) removes it with its alerts. The draft's rules are in rule-draft.ts, its state and calls in use-rule-editor.ts.
import { Alert, Button, Grid, Group, Loader, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'next/navigation';
import { useTRPC } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { SEVERITIES, useAlertWrite, WriteGate } from './alerting-parts.tsx';
import { RuleDeliveryFields } from './rule-delivery-fields.tsx';
import { RulePreview } from './rule-preview.tsx';
import { RuleScopeFields } from './rule-scope-fields.tsx';
import { SchemaForm } from './schema-form.tsx';
import { useRuleEditor, type Rule } from './use-rule-editor.ts';

function Editor({ rule }: { rule: Rule | undefined }) {
  const access = useAlertWrite();
  const editor = useRuleEditor(rule);
  const { draft, set } = editor;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Stack
          gap="sm"
          component="form"
          onSubmit={(event) => {
            event.preventDefault();
            editor.save();
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
            data={editor.conditions.map((item) => ({ value: item.kind, label: item.kind }))}
            value={draft.kind}
            onChange={editor.pickCondition}
            description={editor.condition?.description}
            allowDeselect={false}
          />
          <SchemaForm schema={editor.schema} values={draft.params} onChange={(params) => set({ params })} />
          <RuleScopeFields draft={draft} set={set} />
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
          <RuleDeliveryFields draft={draft} set={set} />
          {editor.saveError && <ProblemView error={editor.saveError} />}
          <Group justify="space-between" align="flex-start">
            <Group>
              <WriteGate access={access}>
                <Button type="submit" disabled={!access.allowed || !editor.input} loading={editor.saving}>
                  {rule ? 'Save' : 'Create rule'}
                </Button>
              </WriteGate>
              <Button variant="default" onClick={editor.leave}>
                Cancel
              </Button>
            </Group>
            {rule && access.allowed && (
              <HoldToConfirm action="Delete" count={1} noun={['rule', 'rules']} onConfirm={editor.remove} />
            )}
          </Group>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <RulePreview input={editor.input} missing={editor.missing} />
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
