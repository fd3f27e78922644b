'use client';
// One operation on a plugin: its plan first (allowed or why not, the steps, what it adds, the findings), then the
// password typed again (step-up), then the answer (state, steps, whether the service restarts). Purge is held.
import { Alert, Badge, Button, Code, Group, List, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { FindingsList, findingsOf } from './findings-list.tsx';
import { StepUpField, stepUpOf, useAccountProvider } from './step-up-field.tsx';
import { OPERATION_LABELS, type PluginOperation, type PluginRow } from './plugin-columns.tsx';

function useOperation(operation: PluginOperation) {
  const trpc = useTRPC();
  const mutations = {
    activate: useMutation(trpc.plugins.activate.mutationOptions()),
    disable: useMutation(trpc.plugins.disable.mutationOptions()),
    uninstall: useMutation(trpc.plugins.uninstall.mutationOptions()),
    rollback: useMutation(trpc.plugins.rollback.mutationOptions()),
    purge: useMutation(trpc.plugins.purge.mutationOptions()),
  };
  return mutations[operation];
}

export function OperationDialog({
  plugin,
  operation,
  onClose,
}: {
  plugin: PluginRow;
  operation: PluginOperation;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const label = OPERATION_LABELS[operation];
  const versions = plugin.archives.map((archive) => archive.version);
  const [version, setVersion] = useState<string | undefined>(operation === 'activate' ? plugin.version : undefined);
  const [password, setPassword] = useState('');
  const provider = useAccountProvider();
  const stepUp = stepUpOf(provider, password);
  const plan = useQuery(
    trpc.plugins.plan.queryOptions({ id: plugin.id, operation, ...(version ? { version } : {}) }, { gcTime: 0 }),
  );
  const mutation = useOperation(operation);
  const run = () =>
    mutation.mutate(
      { id: plugin.id, ...(stepUp.password ? { password: stepUp.password } : {}), ...(version ? { version } : {}) },
      { onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.plugins.pathKey() }) },
    );
  const problem = mutation.error ? problemOf(mutation.error) : undefined;
  const done = mutation.data;

  return (
    <Modal opened onClose={onClose} title={`${label} ${plugin.name}`} size="lg">
      <Stack gap="sm" data-testid="plugin-operation-dialog">
        {operation === 'activate' && versions.length > 0 && (
          <Select
            label="Version"
            data={versions}
            value={version ?? null}
            onChange={(value) => setVersion(value ?? undefined)}
            allowDeselect={false}
          />
        )}
        {plan.isPending && <Loader size="sm" aria-label="Reading the plan" />}
        {plan.error && <ProblemView error={plan.error} onRetry={() => void plan.refetch()} />}
        {plan.data && (
          <Stack gap="xs" data-testid="plugin-plan" data-allowed={String(plan.data.allowed)}>
            <Group gap="xs">
              <Badge color={plan.data.allowed ? 'teal' : 'red'} variant="light">
                {plan.data.allowed ? 'Allowed' : 'Refused'}
              </Badge>
              <Text size="sm">
                {plan.data.fromVersion}
                {plan.data.toVersion && plan.data.toVersion !== plan.data.fromVersion
                  ? ` → ${plan.data.toVersion}`
                  : ''}
                {plan.data.activation ? ` · activation ${plan.data.activation}` : ''}
              </Text>
            </Group>
            {plan.data.refusal && (
              <Alert color="red" variant="light" title="Not allowed now">
                {plan.data.refusal}
              </Alert>
            )}
            {plan.data.steps.length > 0 && (
              <div>
                <Text size="sm" fw={600}>
                  Steps
                </Text>
                <List size="sm" type="ordered">
                  {plan.data.steps.map((step) => (
                    <List.Item key={step}>{step}</List.Item>
                  ))}
                </List>
              </div>
            )}
            {Object.entries(plan.data.adds).some(([, items]) => items.length > 0) && (
              <div>
                <Text size="sm" fw={600}>
                  What it {operation === 'activate' ? 'adds' : 'changes'}
                </Text>
                <List size="sm">
                  {Object.entries(plan.data.adds)
                    .filter(([, items]) => items.length > 0)
                    .map(([kind, items]) => (
                      <List.Item key={kind}>
                        {kind}:{' '}
                        {items.map((item) => (
                          <Code key={item} mr={4}>
                            {item}
                          </Code>
                        ))}
                      </List.Item>
                    ))}
                </List>
              </div>
            )}
            {plan.data.migrations.length > 0 && <Text size="sm">Migrations: {plan.data.migrations.join(', ')}</Text>}
            <FindingsList findings={plan.data.findings} />
          </Stack>
        )}
        {done ? (
          <Alert color="teal" variant="light" title={`${label}: done`} data-testid="plugin-operation-result">
            <Text size="sm">
              State {done.state ?? '—'}
              {done.version ? `, version ${done.version}` : ''}
              {done.restart === 'restarting' && '. The service restarts itself to take it up.'}
              {done.restart === 'required' && '. Restart the service to take it up.'}
            </Text>
            <List size="sm">
              {done.steps.map((step) => (
                <List.Item key={step}>{step}</List.Item>
              ))}
            </List>
          </Alert>
        ) : (
          <>
            <StepUpField
              provider={provider}
              password={password}
              onPassword={setPassword}
              description="Changing plugins needs your password again (step-up)."
            />
            {problem && (
              <Alert color="red" variant="light" title={problem.title} role="alert" data-testid="problem">
                {problem.detail && <Text size="sm">{problem.detail}</Text>}
                <FindingsList findings={findingsOf(problem)} />
              </Alert>
            )}
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {done ? 'Close' : 'Cancel'}
          </Button>
          {!done &&
            (operation === 'purge' ? (
              <HoldToConfirm
                action="Purge"
                count={1}
                noun={['plugin', 'plugins']}
                onConfirm={run}
                disabled={!plan.data?.allowed || !stepUp.ready || mutation.isPending}
              />
            ) : (
              <Button
                onClick={run}
                loading={mutation.isPending}
                disabled={!plan.data?.allowed || !stepUp.ready}
                color={operation === 'activate' ? undefined : 'orange'}
              >
                {label}
              </Button>
            ))}
        </Group>
      </Stack>
    </Modal>
  );
}
