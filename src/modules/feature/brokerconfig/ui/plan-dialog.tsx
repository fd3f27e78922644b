'use client';
// Preview and apply: the plan per live node (canary first), its steps with the fields declared against live, its
// hazards by level (each High one acknowledged by its id), the POSTs per node and the nodes that could not be read;
// a dry run, then the apply by the plan's hash. A refusal says what to do (preview again, wait, acknowledge, have
// someone approve); the answer is each node's outcome.
import { Alert, Badge, Button, Checkbox, Group, Modal, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { LEVEL_COLORS, OUTCOME_COLORS, plural, valueText, type ApplyAnswer, type Plan } from './config-format.ts';
import { APPLY_ADVICE, problemTypeOf } from './config-problem.ts';

type PlanNode = Plan['nodes'][number];
type Step = PlanNode['steps'][number];

const STEP_COLUMNS: readonly Column<Step>[] = [
  {
    id: 'action',
    header: 'Action',
    width: 100,
    cell: (step) => (
      <Badge variant="light" color={step.action === 'remove' ? 'red' : 'blue'}>
        {step.action}
      </Badge>
    ),
  },
  { id: 'summary', header: 'Step', cell: (step) => step.summary },
  {
    id: 'fields',
    header: 'Fields (declared ← live)',
    cell: (step) => (
      <Stack gap={2}>
        {step.fields.map((field) => (
          <Text key={field.field} size="sm" ff="monospace">
            {field.field}: {valueText(field.declared)} ← {valueText(field.live)}
          </Text>
        ))}
      </Stack>
    ),
  },
];

/** A node's steps in the order they run (the planner's), in the one table. */
function StepsTable({ steps }: { steps: readonly Step[] }) {
  const list = useLocalListState({ sort: 'order', pageSize: 50 });
  const order = new Map(steps.map((step, index) => [step.id, index]));
  return (
    <DataTable
      tableId="config-plan-steps"
      label="Steps"
      columns={STEP_COLUMNS}
      rowKey={(step) => step.id}
      rowAttributes={(step) => ({ 'data-testid': 'plan-step', 'data-key': step.key, 'data-action': step.action })}
      list={list}
      query={localQuery(steps, list, {
        text: (step) => `${step.summary} ${step.key}`,
        sortValue: (step) => order.get(step.id) ?? 0,
      })}
      minWidth={600}
      empty={{ title: 'Nothing to change on this node' }}
    />
  );
}
const LEVELS = ['HIGH', 'MEDIUM', 'LOW'] as const;

function NodePlan({
  node,
  posts,
  acknowledged,
  onAcknowledge,
}: {
  node: PlanNode;
  posts: number | undefined;
  acknowledged: ReadonlySet<string>;
  onAcknowledge: (id: string, checked: boolean) => void;
}) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid="plan-node" data-node={node.nodeName}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Group gap="xs">
            <Text fw={600}>{node.nodeName}</Text>
            {node.canary && (
              <Badge color="violet" variant="light" data-testid="canary">
                canary: applied first
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {plural(node.steps.length, 'step', 'steps')}; {plural(posts ?? 0, 'POST', 'POSTs')}
          </Text>
        </Group>
        {node.steps.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing to change on this node.
          </Text>
        ) : (
          <StepsTable steps={node.steps} />
        )}
        {LEVELS.map((level) => {
          const hazards = node.hazards.filter((hazard) => hazard.level === level);
          if (hazards.length === 0) return null;
          return (
            <Stack key={level} gap={4} data-testid={`hazards-${level}`}>
              <Badge color={LEVEL_COLORS[level]} variant="filled" w="fit-content">
                {level}
              </Badge>
              {hazards.map((hazard) => (
                <div key={hazard.id}>
                  {level === 'HIGH' ? (
                    <Checkbox
                      checked={acknowledged.has(hazard.id)}
                      onChange={(event) => onAcknowledge(hazard.id, event.currentTarget.checked)}
                      label={`${hazard.message} (${hazard.id})`}
                      description={hazard.prevents}
                      data-testid="acknowledge-hazard"
                    />
                  ) : (
                    <Text size="sm">
                      {hazard.message}
                      {hazard.prevents ? ` ${hazard.prevents}` : ''}
                    </Text>
                  )}
                </div>
              ))}
            </Stack>
          );
        })}
      </Stack>
    </Paper>
  );
}

function Outcome({ answer }: { answer: ApplyAnswer }) {
  return (
    <Alert
      color={answer.status === 'HALTED' ? 'red' : answer.dryRun ? 'blue' : 'teal'}
      title={
        answer.dryRun
          ? 'Dry run: nothing changed. Applying would run these steps, canary first.'
          : `Revision ${String(answer.revision)}: ${answer.status}`
      }
      data-testid="apply-outcome"
      data-status={answer.status}
    >
      <Stack gap={4}>
        {answer.error && <Text size="sm">{answer.error}</Text>}
        {answer.nodes.map((node) => {
          const failed = node.steps.find((step) => step.outcome === 'FAILED');
          return (
            <Group key={node.nodeId} gap="xs" data-testid="node-outcome" data-outcome={node.outcome}>
              <Text size="sm" fw={600}>
                {node.nodeName}
              </Text>
              <Badge color={OUTCOME_COLORS[node.outcome] ?? 'gray'} variant="light">
                {node.outcome}
              </Badge>
              <Text size="sm" c="dimmed">
                {plural(node.steps.filter((step) => step.outcome === 'APPLIED').length, 'step', 'steps')} applied
                {failed?.error ? `; halted: ${failed.error}` : ''}
                {node.readBack ? `; read back: ${node.readBack}` : ''}
              </Text>
            </Group>
          );
        })}
      </Stack>
    </Alert>
  );
}

export function PlanDialog({ clusterId, onClose }: { clusterId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const plan = useQuery({ ...trpc.brokerconfig.plan.queryOptions({ clusterId }), staleTime: Infinity });
  const [acknowledged, setAcknowledged] = useState<ReadonlySet<string>>(new Set());
  const [dryRunOf, setDryRunOf] = useState<string | undefined>(undefined);
  const apply = useMutation(
    trpc.brokerconfig.applyPlan.mutationOptions({
      onSuccess: (answer) => {
        if (answer.dryRun) setDryRunOf(answer.planHash);
        else void queryClient.invalidateQueries({ queryKey: trpc.brokerconfig.pathKey() });
      },
    }),
  );
  const approve = useMutation(trpc.brokerconfig.approve.mutationOptions({ onSuccess: () => void plan.refetch() }));
  const previewAgain = () => {
    apply.reset();
    approve.reset();
    setDryRunOf(undefined);
    setAcknowledged(new Set());
    void plan.refetch();
  };
  const data = plan.data;
  const highs = [
    ...new Set((data?.nodes ?? []).flatMap((node) => node.hazards.filter((h) => h.level === 'HIGH').map((h) => h.id))),
  ];
  const allAcknowledged = highs.every((id) => acknowledged.has(id));
  const steps = (data?.nodes ?? []).reduce((sum, node) => sum + node.steps.length, 0);
  const run = (dryRun: boolean) =>
    data && apply.mutate({ clusterId, planHash: data.hash, acknowledge: [...acknowledged], dryRun });
  const problemType = problemTypeOf(apply.error);
  const applied = apply.data && !apply.data.dryRun;
  return (
    <Modal opened onClose={onClose} title="Plan and apply" size="xl">
      <Stack gap="sm" data-testid="plan-dialog">
        {plan.isError && <ProblemView error={plan.error} onRetry={() => void plan.refetch()} />}
        {plan.isFetching && !data && <Skeleton height={200} />}
        {data && (
          <>
            <Group justify="space-between">
              <Text size="sm" data-testid="plan-summary">
                Revision {data.revision}: {plural(steps, 'step', 'steps')} over{' '}
                {plural(data.nodes.length, 'node', 'nodes')}; plan{' '}
                <Text span ff="monospace">
                  {data.hash.slice(0, 12)}
                </Text>
              </Text>
              <Button size="xs" variant="default" onClick={previewAgain} loading={plan.isFetching}>
                Preview again
              </Button>
            </Group>
            {data.approval.required && (
              <Alert color={data.approval.approvedBy ? 'teal' : 'orange'} variant="light" data-testid="approval">
                {data.approval.approvedBy
                  ? `Approved by ${data.approval.approvedBy}.`
                  : 'This cluster’s environment needs a second person to approve this exact plan before it is applied.'}
              </Alert>
            )}
            {data.unread.map((node) => (
              <Alert key={node.nodeId} color="red" title={`${node.nodeName} could not be read`} data-testid="unread">
                {node.message} {node.advice}
              </Alert>
            ))}
            {data.nodes.map((node) => (
              <NodePlan
                key={node.nodeId}
                node={node}
                posts={data.postsPerNode[node.nodeName]}
                acknowledged={acknowledged}
                onAcknowledge={(id, checked) =>
                  setAcknowledged((current) => {
                    const next = new Set(current);
                    if (checked) next.add(id);
                    else next.delete(id);
                    return next;
                  })
                }
              />
            ))}
          </>
        )}
        {apply.error && (
          <Alert color="red" title={problemOf(apply.error).title} data-testid="apply-problem" data-type={problemType}>
            <Stack gap="xs">
              <Text size="sm">{problemOf(apply.error).detail}</Text>
              {problemType && APPLY_ADVICE[problemType] && <Text size="sm">{APPLY_ADVICE[problemType]}</Text>}
              <Group gap="xs">
                {problemType === 'plan-changed' && (
                  <Button size="xs" onClick={previewAgain}>
                    Preview again
                  </Button>
                )}
                {problemType === 'approval-required' && data && (
                  <Button
                    size="xs"
                    variant="light"
                    loading={approve.isPending}
                    onClick={() => approve.mutate({ clusterId, planHash: data.hash, dryRun: false })}
                  >
                    Approve this plan (as another person)
                  </Button>
                )}
              </Group>
            </Stack>
          </Alert>
        )}
        {approve.error && (
          <Alert color="red" title={problemOf(approve.error).title}>
            {problemOf(approve.error).detail}
          </Alert>
        )}
        {approve.data && (
          <Alert color="teal" variant="light">
            Approved by {approve.data.approvedBy}: whoever previewed it can apply it now.
          </Alert>
        )}
        {apply.data && <Outcome answer={apply.data} />}
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {highs.length > 0 && !allAcknowledged
              ? `Acknowledge ${plural(highs.length - acknowledged.size, 'more High hazard', 'more High hazards')} to apply.`
              : 'Applied canary first; halts at the first failure.'}
          </Text>
          <Group gap="xs">
            {data?.approval.required && !data.approval.approvedBy && (
              <Button
                variant="default"
                loading={approve.isPending}
                onClick={() => approve.mutate({ clusterId, planHash: data.hash, dryRun: false })}
              >
                Approve
              </Button>
            )}
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button
              variant="light"
              disabled={!data || steps === 0 || applied}
              loading={apply.isPending && apply.variables.dryRun}
              onClick={() => run(true)}
            >
              Dry run
            </Button>
            <Button
              disabled={!data || steps === 0 || !allAcknowledged || dryRunOf !== data.hash || applied}
              loading={apply.isPending && !apply.variables.dryRun}
              onClick={() => run(false)}
            >
              Apply
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
