import { Badge, Button, Code, Group, Menu, Stack, Text, Tooltip } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

export type PluginRow = RouterOutputs['plugins']['list']['items'][number];
export type PluginOperation = 'activate' | 'disable' | 'uninstall' | 'rollback' | 'purge';

const STATE_COLOR: Record<PluginRow['state'], string> = {
  UPLOADED: 'blue',
  ACTIVE: 'teal',
  DISABLED: 'gray',
  FAILED: 'red',
  UNINSTALLED: 'dark',
};

export const OPERATION_LABELS: Record<PluginOperation, string> = {
  activate: 'Activate',
  disable: 'Disable',
  uninstall: 'Uninstall',
  rollback: 'Roll back',
  purge: 'Purge',
};

/** The operations a plugin in this state may be offered (the plan says the final word). */
const OFFERED: Record<PluginRow['state'], readonly PluginOperation[]> = {
  UPLOADED: ['activate', 'uninstall'],
  ACTIVE: ['activate', 'disable', 'rollback'],
  DISABLED: ['activate', 'uninstall', 'rollback'],
  FAILED: ['activate', 'disable', 'uninstall', 'rollback'],
  UNINSTALLED: ['activate', 'purge'],
};

function PluginActions({ plugin, onOperation }: { plugin: PluginRow; onOperation: (op: PluginOperation) => void }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          size="compact-sm"
          variant="light"
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={`Actions for ${plugin.id}`}
        >
          Actions
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {OFFERED[plugin.state].map((operation) => (
          <Menu.Item
            key={operation}
            color={operation === 'purge' ? 'red' : undefined}
            onClick={() => onOperation(operation)}
          >
            {OPERATION_LABELS[operation]}…
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

export function pluginColumns(onOperation: (plugin: PluginRow, op: PluginOperation) => void): Column<PluginRow>[] {
  return [
    {
      id: 'id',
      header: 'Plugin',
      sortField: 'id',
      width: 260,
      cell: (plugin) => (
        <Stack gap={2}>
          <Code fw={600} style={{ alignSelf: 'flex-start' }}>
            {plugin.id}
          </Code>
          <Text size="sm">{plugin.name}</Text>
          <Text size="xs" c="dimmed" lineClamp={2}>
            {plugin.description}
          </Text>
        </Stack>
      ),
    },
    {
      id: 'state',
      header: 'State',
      sortField: 'state',
      width: 120,
      cell: (plugin) => (
        <Badge variant="light" color={STATE_COLOR[plugin.state]} data-testid="plugin-state" data-state={plugin.state}>
          {plugin.state}
        </Badge>
      ),
    },
    { id: 'version', header: 'Version', sortField: 'version', width: 100, cell: (plugin) => plugin.version },
    {
      id: 'previousVersion',
      header: 'Previous',
      width: 100,
      cell: (plugin) => plugin.previousVersion ?? '—',
    },
    { id: 'activation', header: 'Activation', width: 100, cell: (plugin) => plugin.activation },
    {
      id: 'runsHere',
      header: 'Runs here',
      width: 180,
      cell: (plugin) =>
        plugin.runningHere ? (
          <Tooltip label={`Started ${plugin.runningHere.startedAt}, version ${plugin.runningHere.version}`} withArrow>
            <Stack gap={0} data-testid="plugin-runs-here">
              <Text size="sm">runs here · pid {plugin.runningHere.pid}</Text>
              <Text size="xs" c="dimmed">
                network: {plugin.runningHere.network}
              </Text>
            </Stack>
          </Tooltip>
        ) : (
          <Text size="sm" c="dimmed">
            not running here
          </Text>
        ),
    },
    {
      id: 'lastError',
      header: 'Last error',
      cell: (plugin) =>
        plugin.lastError ? (
          <Text size="xs" c="red" lineClamp={3}>
            {plugin.lastError}
          </Text>
        ) : (
          '—'
        ),
    },
    {
      id: 'updated',
      header: 'Updated',
      sortField: 'updatedAt',
      width: 170,
      cell: (plugin) => (
        <Stack gap={0}>
          <TimeAgo iso={plugin.updatedAt} />
          <Text size="xs" c="dimmed">
            by {plugin.updatedBy}
          </Text>
        </Stack>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      width: 120,
      cell: (plugin) => (
        <Group justify="flex-end">
          <PluginActions plugin={plugin} onOperation={(operation) => onOperation(plugin, operation)} />
        </Group>
      ),
    },
  ];
}
