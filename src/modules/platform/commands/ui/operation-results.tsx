'use client';
// The operation dialog's account of numbers: a preview's total against the bulk cap, and a finished run's outcome
// with each node's result and the audit row it left.
import { Alert, Anchor, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import { auditPath, nodesWord } from './command-answers.ts';
import { CommandNodes, formatCount, type CommandResult } from './command-nodes.tsx';
import type { OperationSpec } from './operation-spec.ts';

export function Totals({ preview }: { preview: CommandResult }) {
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

export function Outcome({ result, spec }: { result: CommandResult; spec: OperationSpec }) {
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
