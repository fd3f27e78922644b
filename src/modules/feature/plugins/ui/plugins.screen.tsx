'use client';
// Admin → Plugins: every runtime plugin (state, versions, where it runs, its last error), uploading an archive,
// the operations (each planned, then confirmed with the password typed again), safe mode, and the plugins' own
// settings. Live: the server publishes the `plugins` topic after every change, which refetches the list.
import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { DataAge } from '@/ui/stream/data-age.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { OperationDialog } from './operation-dialog.tsx';
import { pluginColumns, type PluginOperation, type PluginRow } from './plugin-columns.tsx';
import { PluginSettings } from './plugin-settings.tsx';
import { SafeModeBanner } from './safe-mode-banner.tsx';
import { UploadPanel } from './upload-panel.tsx';

const text = (plugin: PluginRow) => `${plugin.id} ${plugin.name} ${plugin.description} ${plugin.state}`;
const sortValue = (plugin: PluginRow, field: string) =>
  field === 'state'
    ? plugin.state
    : field === 'version'
      ? plugin.version
      : field === 'updatedAt'
        ? plugin.updatedAt
        : plugin.id;

export function PluginsScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: 'id' });
  const plugins = useQuery({ ...trpc.plugins.list.queryOptions(), ...useLive(['plugins']) });
  const query = localQuery(plugins.data?.items, list, { text, sortValue }, plugins);
  // The plugin as it was when its operation was chosen: a purge's answer still shows once the row has gone.
  const [pending, setPending] = useState<{ plugin: PluginRow; operation: PluginOperation } | undefined>(undefined);
  return (
    <>
      <PageHeader
        title="Plugins"
        description="Third-party plugins: uploaded as archives, validated without running anything, and run each in a process of its own. Every change asks you to authenticate again (step-up)."
      />
      <Stack gap="md">
        <DataAge
          readAt={plugins.dataUpdatedAt ? new Date(plugins.dataUpdatedAt).toISOString() : undefined}
          refreshedWhen="a plugin changes"
        />
        {plugins.data && <SafeModeBanner safeMode={plugins.data.safeMode} />}
        <UploadPanel />
        <DataTable
          tableId="plugins"
          label="Plugins"
          columns={pluginColumns((plugin, operation) => setPending({ plugin, operation }))}
          rowKey={(plugin) => plugin.id}
          list={list}
          query={query}
          searchPlaceholder="Search plugins"
          rowAttributes={(plugin) => ({ 'data-plugin': plugin.id })}
          empty={{ title: 'No plugins', description: 'Upload a plugin archive above to install one.' }}
        />
        <PageSection
          title="Plugins"
          id="settings"
          description="Each plugin’s settings and their values. They are changed in Settings, under Plugins, while the plugin runs."
        >
          <PluginSettings plugins={plugins.data?.items ?? []} />
        </PageSection>
      </Stack>
      {pending && (
        <OperationDialog
          key={`${pending.plugin.id}:${pending.operation}`}
          plugin={pending.plugin}
          operation={pending.operation}
          onClose={() => setPending(undefined)}
        />
      )}
    </>
  );
}
