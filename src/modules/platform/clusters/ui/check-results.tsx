// The registration checks' answers: status, what was found, and for a warn or fail what to change.
import { Badge, Stack, Table, Text } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { ConfigSnippet } from './config-snippet.tsx';

export type CheckResult = RouterOutputs['clusters']['register']['checks'][number];
export type ProbedNode = RouterOutputs['clusters']['register']['nodes'][number];

const COLORS = { ok: 'teal', warn: 'yellow', fail: 'red' } as const;

export function CheckResults({ checks }: { checks: readonly CheckResult[] }) {
  return (
    <Table verticalSpacing="xs" aria-label="Registration checks" data-testid="check-results">
      <Table.Tbody>
        {checks.map((check) => (
          <Table.Tr key={check.id} data-check={check.id} data-status={check.status}>
            <Table.Td w={90} valign="top">
              <Badge color={COLORS[check.status]} variant="light">
                {check.status}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Stack gap={4}>
                <Text size="sm" fw={600}>
                  {check.title}
                  {check.blocking ? '' : ' (advisory)'}
                </Text>
                <Text size="sm">{check.detail}</Text>
                {check.advice && (
                  <Text size="sm" c="dimmed">
                    {check.advice}
                  </Text>
                )}
                {check.snippet && check.status !== 'ok' && <ConfigSnippet snippet={check.snippet} />}
              </Stack>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function ProbedNodes({ nodes }: { nodes: readonly ProbedNode[] }) {
  return (
    <Table verticalSpacing="xs" aria-label="Nodes found" data-testid="probed-nodes">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Management URL</Table.Th>
          <Table.Th>Broker</Table.Th>
          <Table.Th>Role</Table.Th>
          <Table.Th>Found by</Table.Th>
          <Table.Th>State</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {nodes.map((node) => (
          <Table.Tr key={node.managementUrl}>
            <Table.Td>
              <Text size="sm" ff="monospace">
                {node.managementUrl}
              </Text>
            </Table.Td>
            <Table.Td>{node.brokerName ?? '—'}</Table.Td>
            <Table.Td>{node.role}</Table.Td>
            <Table.Td>{node.discovered ? 'topology' : 'you'}</Table.Td>
            <Table.Td>
              {node.error ? (
                <Text size="sm" c="red">
                  {node.error}
                </Text>
              ) : node.active ? (
                'active'
              ) : (
                'passive'
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
