'use client';
// The one flow of every broker command the console runs (queue, message, address and connection operations): a dry
// run first, shown node by node with the total and the bulk cap; then the confirmation (held for a destructive one,
// whose label names the action and the count); while the call runs, how many nodes it acts on; then each node's
// outcome and the audit row it left. Over the cap the server refuses (422 bulk-cap-exceeded): only after the preview
// and the hold is the cap offered to be overridden, and held again. Shared through the commands module's ui.ts.
// What a module hands it is an OperationSpec (operation-spec.ts); the state is in use-operation-run.ts.
import { Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { acting, failedNodes, nodesWord } from './command-answers.ts';
import { CommandNodes } from './command-nodes.tsx';
import { OperationCapped } from './operation-capped.tsx';
import { Outcome, Totals } from './operation-results.tsx';
import type { OperationSpec } from './operation-spec.ts';
import { useOperationRun } from './use-operation-run.ts';

export function OperationDialog({ spec, onClose }: { spec: OperationSpec; onClose: () => void }) {
  const { preview, previewing, data, askPreview, phase, act, override, setOverride } = useOperationRun(spec);
  const editing = phase.kind === 'idle';
  const holdCount = spec.hold?.count ?? data?.affectedCount ?? 0;
  return (
    <Modal
      opened
      onClose={onClose}
      title={spec.title}
      size="xl"
      closeOnClickOutside={phase.kind !== 'running'}
      data-testid="operation-dialog"
    >
      <Stack gap="md">
        <Text size="sm">{spec.description}</Text>
        {spec.notice}
        {spec.form && (
          <fieldset disabled={!editing} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="sm">{spec.form}</Stack>
          </fieldset>
        )}
        {editing && (spec.form || preview.isError) && (
          <Group>
            <Button
              variant={data ? 'default' : 'filled'}
              disabled={!spec.ready}
              loading={previewing && preview.isFetching}
              onClick={askPreview}
            >
              {data ? 'Preview again' : 'Preview'}
            </Button>
          </Group>
        )}
        {previewing && preview.isPending && (
          <Group gap="xs" data-testid="preview-loading">
            <Loader size="sm" />
            <Text size="sm">Counting on every node (a dry run: nothing changes)…</Text>
          </Group>
        )}
        {previewing && preview.isError && <ProblemView error={preview.error} />}
        {data && phase.kind !== 'done' && (
          <Stack gap="sm" data-testid="operation-preview">
            <Text size="sm" fw={600}>
              {spec.summary(data)}
            </Text>
            <Totals preview={data} />
            <CommandNodes nodes={data.nodes} after={false} />
          </Stack>
        )}
        {data && editing && (
          <Group justify="flex-end">
            {spec.hold ? (
              <HoldToConfirm
                action={spec.hold.action}
                count={holdCount}
                noun={spec.hold.noun}
                disabled={acting(data) === 0}
                onConfirm={() => void act(false)}
              />
            ) : (
              <Button disabled={acting(data) === 0} onClick={() => void act(false)}>
                {spec.applyLabel?.(data) ?? 'Apply'}
              </Button>
            )}
          </Group>
        )}
        {phase.kind === 'running' && (
          <Group gap="xs" data-testid="operation-running">
            <Loader size="sm" />
            <Text size="sm">Acting on {nodesWord(acting(data))}…</Text>
          </Group>
        )}
        {phase.kind === 'capped' && (
          <OperationCapped
            affectedCount={phase.affectedCount}
            cap={phase.cap}
            hold={spec.hold}
            override={override}
            onOverride={setOverride}
            onConfirm={() => void act(true)}
          />
        )}
        {phase.kind === 'failed' && (
          <Stack gap="sm" data-testid="operation-failed">
            <ProblemView error={phase.error} />
            {failedNodes(phase.error) && <CommandNodes nodes={failedNodes(phase.error) ?? []} after />}
          </Stack>
        )}
        {phase.kind === 'done' && <Outcome result={phase.result} spec={spec} />}
        {(phase.kind === 'done' || phase.kind === 'failed') && (
          <Group justify="space-between">
            <div>{phase.kind === 'done' && spec.afterwards}</div>
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
