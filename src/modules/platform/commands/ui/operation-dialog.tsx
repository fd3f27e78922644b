'use client';
// The one flow of every broker command the console runs (queue, message, address and connection operations): a dry
// run first, shown node by node with the total and the bulk cap; then the confirmation (held for a destructive one,
// whose label names the action and the count); while the call runs, how many nodes it acts on; then each node's
// outcome and the audit row it left. Over the cap the server refuses (422 bulk-cap-exceeded): only after the preview
// and the hold is the cap offered to be overridden, and held again. Shared through the commands module's ui.ts.
import { Alert, Anchor, Button, Checkbox, Code, CopyButton, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState, type ReactNode } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { CommandNodes, formatCount, type CommandResult } from './command-nodes.tsx';

export interface RunFlags {
  readonly dryRun: boolean;
  readonly override: boolean;
}

export interface OperationSpec {
  /** The dialog's title, e.g. "Purge orders". */
  readonly title: string;
  readonly description: ReactNode;
  /** Shown under the description, e.g. that the cluster's writes are not confirmed yet (CapabilityNote). */
  readonly notice?: ReactNode;
  /** The operation's parameters (a filter, a target queue); absent: the preview starts at once. */
  readonly form?: ReactNode;
  /** The parameters as one string: a preview is of exactly these, and a change asks for a new one. */
  readonly parameters: string;
  /** The form is complete enough to preview. */
  readonly ready: boolean;
  /** A destructive operation is held to confirm: the verb and what it counts, e.g. Purge, message(s). */
  readonly hold?: { readonly action: string; readonly noun: readonly [string, string]; readonly count?: number };
  /** The button of an operation that is not destructive, e.g. "Pause on 2 nodes". */
  readonly applyLabel?: (preview: CommandResult) => string;
  /** One sentence on what the preview says would happen. */
  readonly summary: (preview: CommandResult) => string;
  /** One sentence on what was done, e.g. "4 messages removed on 1 node" (default: the count and the nodes). */
  readonly done?: (result: CommandResult) => string;
  readonly run: (flags: RunFlags) => Promise<CommandResult>;
  /** What the audit log names as the target (the queue), for the link to its row. */
  readonly auditTarget: string;
  /** Shown below a finished operation, e.g. the way back to the queues after deleting one. */
  readonly afterwards?: ReactNode;
}

type Phase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly override: boolean }
  | { readonly kind: 'capped'; readonly affectedCount: number; readonly cap: number }
  | { readonly kind: 'done'; readonly result: CommandResult }
  | { readonly kind: 'failed'; readonly error: unknown };

/** The audit log filtered to the operation's rows on its target (newest first: this one on top). */
const auditPath = (action: string, target: string) =>
  `/audit?${new URLSearchParams({ action, q: target, dryRun: 'false' }).toString()}`;

const acting = (preview: CommandResult | undefined) =>
  preview ? preview.nodes.filter((node) => node.outcome === 'WOULD_APPLY').length : 0;
const nodesWord = (count: number) => `${count} ${count === 1 ? 'node' : 'nodes'}`;

/** The numbers a bulk-cap refusal carries (affectedCount, cap), when it is one. */
function capRefusal(error: unknown): { affectedCount: number; cap: number } | undefined {
  const problem = problemOf(error) as unknown as Record<string, unknown>;
  if (problem.type !== 'bulk-cap-exceeded') return undefined;
  const affectedCount = Number(problem.affectedCount);
  const cap = Number(problem.cap);
  return Number.isFinite(affectedCount) && Number.isFinite(cap) ? { affectedCount, cap } : undefined;
}

/** The per-node outcomes a refusal of every node carries (502 broker-command-failed). */
function failedNodes(error: unknown): CommandResult['nodes'] | undefined {
  const nodes = (problemOf(error) as unknown as Record<string, unknown>).nodes;
  return Array.isArray(nodes) ? (nodes as CommandResult['nodes']) : undefined;
}

function Totals({ preview }: { preview: CommandResult }) {
  const over = preview.cap !== null && preview.affectedCount > preview.cap;
  return (
    <Stack gap={4}>
      <Group gap="lg">
        <Text size="sm">
          Total <strong data-testid="preview-total">{formatCount(preview.affectedCount)}</strong>
        </Text>
        {preview.cap !== null && (
          <Text size="sm" c={over ? 'orange' : 'dimmed'} data-testid="preview-cap">
            Bulk cap {formatCount(preview.cap)} (safety.bulk-cap)
          </Text>
        )}
      </Group>
      {over && (
        <Text size="sm" c="orange">
          This is over the bulk cap: after you hold the button, the server refuses and offers to override the cap.
        </Text>
      )}
    </Stack>
  );
}

function Outcome({ result, spec }: { result: CommandResult; spec: OperationSpec }) {
  const failed = result.nodes.filter((node) => node.outcome === 'FAILED').length;
  const colour = result.outcome === 'SUCCEEDED' ? 'teal' : result.outcome === 'PARTIAL' ? 'orange' : 'red';
  return (
    <Stack gap="sm" data-testid="operation-outcome" data-outcome={result.outcome}>
      <Alert color={colour} variant="light" title={result.outcome === 'SUCCEEDED' ? 'Done' : 'Partly done'}>
        <Text size="sm">
          {spec.done?.(result) ??
            `${formatCount(result.appliedCount)} done on ${nodesWord(result.nodes.filter((node) => node.outcome === 'APPLIED').length)}`}
          {failed > 0 ? `; ${nodesWord(failed)} failed, see the advice below` : ''}.
        </Text>
      </Alert>
      <CommandNodes nodes={result.nodes} after />
      <AuditLink action={result.action} auditId={result.auditId} target={spec.auditTarget} />
    </Stack>
  );
}

function AuditLink({ action, auditId, target }: { action: string; auditId: string; target: string }) {
  return (
    <Group gap="xs">
      <Anchor component={Link} href={auditPath(action, target)} size="sm" data-testid="audit-link">
        Open the audit log
      </Anchor>
      <Text size="xs" c="dimmed">
        audit row <Code>{auditId}</Code>
      </Text>
      <CopyButton value={auditId}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="subtle" onClick={copy}>
            {copied ? 'Copied' : 'Copy id'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

export function OperationDialog({ spec, onClose }: { spec: OperationSpec; onClose: () => void }) {
  const id = useId();
  // The parameters a preview was asked for; without a form it is asked for at once.
  const [requested, setRequested] = useState<string | undefined>(spec.form ? undefined : spec.parameters);
  const [round, setRound] = useState(0);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [override, setOverride] = useState(false);
  const previewing = requested !== undefined && requested === spec.parameters && spec.ready;
  // A dry run writes an audit row: it runs when asked, never again by itself (focus, remount, reconnect).
  const preview = useQuery({
    queryKey: ['operation-preview', id, spec.parameters, round],
    queryFn: () => spec.run({ dryRun: true, override: false }),
    enabled: previewing,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const data = previewing ? preview.data : undefined;

  const act = async (withOverride: boolean) => {
    setPhase({ kind: 'running', override: withOverride });
    try {
      const result = await spec.run({ dryRun: false, override: withOverride });
      setPhase({ kind: 'done', result });
    } catch (error) {
      const refusal = withOverride ? undefined : capRefusal(error);
      setPhase(refusal ? { kind: 'capped', ...refusal } : { kind: 'failed', error });
    }
  };

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
              onClick={() => {
                setRequested(spec.parameters);
                if (requested === spec.parameters) setRound((current) => current + 1);
              }}
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
          <Stack gap="sm" data-testid="operation-capped">
            <Alert color="orange" variant="light" title="Over the bulk cap: nothing was done">
              <Text size="sm">
                It would affect {formatCount(phase.affectedCount)} {phase.affectedCount === 1 ? 'message' : 'messages'},
                over the bulk cap of {formatCount(phase.cap)} (safety.bulk-cap). The refusal is in the audit log.
              </Text>
            </Alert>
            <Checkbox
              label={`Override the cap for this operation (${formatCount(phase.affectedCount)} at once)`}
              checked={override}
              onChange={(event) => setOverride(event.currentTarget.checked)}
            />
            {spec.hold && (
              <Group justify="flex-end">
                <HoldToConfirm
                  action={spec.hold.action}
                  count={spec.hold.count ?? phase.affectedCount}
                  noun={spec.hold.noun}
                  disabled={!override}
                  onConfirm={() => void act(true)}
                />
              </Group>
            )}
          </Stack>
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
