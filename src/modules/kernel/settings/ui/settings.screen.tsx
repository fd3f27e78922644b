'use client';
// Settings: every setting the enabled modules declare, one section per module under the fixed headings
// (kernel → System, platform → Platform, feature → Features), plus sections other modules contribute through
// `settings.sections` (runtime plugins' always under Plugins). A running plugin's own settings
// (settings.runtime-declarations) are a section of their own under Plugins, named after the plugin.
import { Skeleton, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { EmptyState } from '@/ui/parts/empty-state.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useConsoleUi } from '@/ui/slots/console-ui-context.ts';
import { SETTINGS_HEADINGS, type SettingsHeading } from '@/ui/slots/slot-ids.ts';
import { useContributions } from '@/ui/slots/slot.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { SearchBox } from '@/ui/table/search-box.tsx';
import { SettingEditor, type SettingView } from './setting-editor.tsx';

const HEADING_OF_LAYER: Record<string, SettingsHeading> = {
  kernel: 'System',
  platform: 'Platform',
  feature: 'Features',
};

interface SectionView {
  readonly id: string;
  readonly heading: SettingsHeading;
  readonly title: string;
  readonly settings?: readonly SettingView[];
  readonly component?: ComponentType;
}

export function SettingsScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: 'key' });
  const { manifest } = useConsoleUi();
  // Every setting at once: there are dozens, not thousands, and sections need them all.
  const query = useQuery(
    trpc.settings.list.queryOptions({ ...(list.state.q ? { q: list.state.q } : {}), pageSize: 500 }),
  );
  const contributed = useContributions('settings.sections');

  const byModule = new Map<string, SettingView[]>();
  const byPlugin = new Map<string, SettingView[]>();
  for (const setting of query.data?.items ?? []) {
    const [map, id] = setting.declaredBy ? [byPlugin, setting.declaredBy] : [byModule, setting.module];
    map.set(id, [...(map.get(id) ?? []), setting]);
  }
  const pluginSections: SectionView[] = [...byPlugin].map(([pluginId, settings]) => ({
    id: `plugin-${pluginId}`,
    heading: 'Plugins',
    title: `Plugin ${pluginId}`,
    settings,
  }));
  const moduleSections: SectionView[] = [...byModule].map(([moduleId, settings]) => {
    const owner = manifest?.modules.find((candidate) => candidate.id === moduleId);
    return {
      id: moduleId,
      heading: HEADING_OF_LAYER[owner?.layer ?? 'feature'] ?? 'Features',
      title: owner?.title ?? moduleId,
      settings,
    };
  });
  const sections: SectionView[] = [
    ...moduleSections,
    ...pluginSections,
    ...contributed.map((contribution) => ({
      id: contribution.id,
      heading: contribution.heading,
      title: contribution.title,
      component: contribution.component,
    })),
  ];

  return (
    <Stack gap="lg">
      <PageHeader
        title="Settings"
        description="Declared by the modules, validated against their rules, audited when changed. Runtime settings reach every process within a second; the others apply at the next start."
        actions={
          <SearchBox value={list.state.q} onChange={list.setQ} placeholder="Search settings" label="Search settings" />
        }
      />
      {query.error ? <ProblemView error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.isPending && (
        <Stack aria-hidden>
          <Skeleton height={160} radius="md" />
          <Skeleton height={160} radius="md" />
        </Stack>
      )}
      {query.data && sections.length === 0 && (
        <EmptyState title="No settings match">Clear the search to see every setting.</EmptyState>
      )}
      {SETTINGS_HEADINGS.map((heading) => {
        const underHeading = sections.filter((section) => section.heading === heading);
        if (underHeading.length === 0) return null;
        return (
          <Stack key={heading} gap="sm" component="section" aria-label={heading}>
            <Title order={2} fz="h3">
              {heading}
            </Title>
            {underHeading.map((section) => {
              const Component = section.component;
              return (
                <PageSection key={section.id} id={`settings-${section.id}`} title={section.title}>
                  {Component ? (
                    <Component />
                  ) : (
                    <Stack gap={0}>
                      {section.settings?.map((setting) => (
                        <SettingEditor key={setting.key} setting={setting} />
                      ))}
                    </Stack>
                  )}
                </PageSection>
              );
            })}
          </Stack>
        );
      })}
    </Stack>
  );
}
