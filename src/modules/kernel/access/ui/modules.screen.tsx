'use client';
// Admin → Installation → Modules: the manifest as a table. It is read whole, so q/sort/page apply here, from
// the same URL state every other table uses.
import { Badge, Code, Stack, Text } from '@mantine/core';
import { useManifest, type ManifestModule } from '@/ui/data/manifest.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { pageLocally, useListState } from '@/ui/table/list-state.ts';

const LAYER_ORDER = { kernel: 0, platform: 1, feature: 2 } as const;

const COLUMNS: readonly Column<ManifestModule>[] = [
  {
    id: 'title',
    header: 'Module',
    sortField: 'title',
    cell: (module) => (
      <Stack gap={0}>
        <Text size="sm" fw={600}>
          {module.title} <Code>{module.id}</Code>
        </Text>
        <Text size="xs" c="dimmed" lineClamp={2}>
          {module.description}
        </Text>
      </Stack>
    ),
  },
  { id: 'layer', header: 'Layer', sortField: 'layer', width: 100, cell: (module) => module.layer },
  {
    id: 'enabled',
    header: 'State',
    sortField: 'enabled',
    width: 110,
    cell: (module) => (
      <Badge variant="light" color={module.enabled ? 'teal' : 'gray'}>
        {module.enabled ? 'on' : 'off'}
      </Badge>
    ),
  },
  {
    id: 'enablingProperty',
    header: 'Enabling property',
    cell: (module) =>
      module.canBeDisabled ? (
        <Code>{module.enablingProperty}</Code>
      ) : (
        <Text size="xs" c="dimmed">
          required, always on
        </Text>
      ),
  },
  { id: 'toggleSource', header: 'Set by', width: 110, hiddenByDefault: true, cell: (module) => module.toggleSource },
  { id: 'topics', header: 'Stream topics', cell: (module) => module.topics.join(', ') || '—' },
  { id: 'permissions', header: 'Permissions', cell: (module) => module.permissions.join(', ') || '—' },
  { id: 'requires', header: 'Requires', hiddenByDefault: true, cell: (module) => module.requires.join(', ') || '—' },
];

export function ModulesScreen() {
  const manifest = useManifest();
  const list = useListState({ sort: 'layer', pageSize: 50 });
  const page = manifest.data
    ? pageLocally(manifest.data.modules, list.state, {
        text: (module) => `${module.id} ${module.title} ${module.description}`,
        sortValue: (module, field) =>
          field === 'layer'
            ? LAYER_ORDER[module.layer]
            : field === 'enabled'
              ? Number(!module.enabled)
              : module.title.toLowerCase(),
      })
    : undefined;
  return (
    <>
      <PageHeader
        title="Modules"
        description="What this installation is made of, whether each part is on, and the property that turns a feature on or off (applies at the next start)."
      />
      <DataTable
        tableId="modules"
        label="Modules"
        columns={COLUMNS}
        rowKey={(module) => module.id}
        list={list}
        query={{
          data: page,
          error: manifest.error,
          isPending: manifest.isPending,
          isFetching: manifest.isFetching,
          refetch: manifest.refetch,
        }}
        searchPlaceholder="Search modules"
        empty={{ title: 'No modules', description: 'The manifest lists no modules.' }}
      />
    </>
  );
}
