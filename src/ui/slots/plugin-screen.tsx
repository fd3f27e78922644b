'use client';
// A runtime plugin's screen (plugin-ui.tsx turns a `screen` contribution into a navbar entry and one of these): the
// page at /plugin/<plugin id>/<name>. It waits for the plugins' UI bundles (a deep link arrives before they have
// loaded), then renders the screen inside the plugin's error boundary under the shared page header, or says that no
// active plugin has that screen (the plugin is disabled, not installed, or its bundle failed to load).
import { Anchor, Badge, Loader, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import { EmptyState } from '../parts/empty-state.tsx';
import { PageHeader } from '../parts/page-header.tsx';
import { useConsoleUi } from './console-ui-context.ts';

export function PluginScreenPage({ pluginId, name }: { pluginId: string; name: string }) {
  const { enabled, pluginsLoaded } = useConsoleUi();
  const screen = enabled.find((ui) => ui.moduleId === `plugin:${pluginId}`)?.screens?.find((s) => s.name === name);
  if (screen) {
    const Screen = screen.component;
    return (
      <>
        <PageHeader
          title={screen.title}
          description={
            <Badge size="sm" variant="outline" color="gray">
              plugin {pluginId}
            </Badge>
          }
        />
        <div data-plugin={pluginId} data-plugin-screen={name}>
          <Screen />
        </div>
      </>
    );
  }
  if (!pluginsLoaded) {
    return (
      <Stack align="center" p="xl" data-testid="plugin-screen-loading">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          Loading the plugin’s screen…
        </Text>
      </Stack>
    );
  }
  return (
    <>
      <PageHeader title="Plugin screen not available" />
      <EmptyState
        title={`No active plugin offers ${pluginId}/${name}`}
        action={
          <Anchor component={Link} href="/admin/plugins">
            Open Admin → Plugins
          </Anchor>
        }
      >
        The plugin may be disabled or uninstalled, its UI bundle may have failed to load (the browser’s console says
        why), or the link is mistyped.
      </EmptyState>
    </>
  );
}
