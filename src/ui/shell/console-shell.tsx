'use client';
// The console frame: header, navbar, and the page. It reads the manifest once, keeps only enabled modules' UI,
// and opens the one stream of the page's scope (a cluster's pages: that cluster) carrying every enabled module's
// topics.
import { AppShell, Burger, Center, Group, Loader, Text } from '@mantine/core';
import { useDisclosure, useLocalStorage } from '@mantine/hooks';
import { IconSailboat } from '@tabler/icons-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { Suspense, useMemo, type ReactNode } from 'react';
import { CommandPalette } from '../command-palette/command-palette.tsx';
import { useManifest } from '../data/manifest.ts';
import { INSTALLED_UI } from '@/installation/ui.ts';
import { ProblemView } from '../parts/problem-view.tsx';
import { ConsoleUiContext, type ConsoleUi } from '../slots/console-ui-context.ts';
import { usePluginUis } from '../slots/plugin-ui.tsx';
import { enabledModuleUis, enabledTopics } from '../slots/resolve-ui.ts';
import { Slot } from '../slots/slot.tsx';
import { ConnectionIndicator } from '../stream/connection-indicator.tsx';
import { StreamProvider } from '../stream/stream-provider.tsx';
import { streamScopeOf } from '../stream/stream-scope.ts';
import { FeatureGate } from './feature-gate.tsx';
import { Navigation } from './navigation.tsx';
import { SkipLink } from './skip-link.tsx';
import { ThemeToggle } from './theme-toggle.tsx';
import { UserMenu } from './user-menu.tsx';

export function ConsoleShell({ children }: { children: ReactNode }) {
  const [navOpen, { toggle, close }] = useDisclosure(false);
  // On a laptop the navbar can be put away to give a wide table the whole width; the choice is remembered.
  const [navHidden, setNavHidden] = useLocalStorage({ key: 'flotilla.navbar.hidden', defaultValue: false });
  const manifest = useManifest();
  // Active runtime plugins' UIs (src/ui/slots/plugin-ui.tsx), checked and each wrapped in an error boundary.
  const plugins = usePluginUis(manifest.data !== undefined);
  const ui = useMemo<ConsoleUi>(
    () => ({
      manifest: manifest.data,
      enabled: manifest.data ? [...enabledModuleUis(INSTALLED_UI, manifest.data.modules), ...plugins.uis] : [],
      pluginsLoaded: plugins.loaded,
    }),
    [manifest.data, plugins],
  );
  const streamScope = streamScopeOf(usePathname());
  const topics = useMemo(() => (manifest.data ? enabledTopics(manifest.data.modules) : []), [manifest.data]);

  return (
    <ConsoleUiContext value={ui}>
      <StreamProvider clusterId={streamScope} topics={topics}>
        <AppShell
          header={{ height: 56 }}
          navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !navOpen, desktop: navHidden } }}
          padding="lg"
        >
          <AppShell.Header>
            <SkipLink />
            <Group h="100%" px="md" justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <Burger opened={navOpen} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
                <Burger
                  opened={!navHidden}
                  onClick={() => setNavHidden((hidden) => !hidden)}
                  visibleFrom="sm"
                  size="sm"
                  aria-label={navHidden ? 'Show navigation' : 'Hide navigation'}
                  aria-expanded={!navHidden}
                />
                <Link href="/" style={{ textDecoration: 'none', color: 'inherit' }}>
                  <Group gap={8} wrap="nowrap">
                    <IconSailboat size={24} aria-hidden />
                    <Text fw={700} size="lg">
                      Flotilla
                    </Text>
                  </Group>
                </Link>
              </Group>
              <Group gap="sm" wrap="nowrap">
                <CommandPalette />
                <Slot id="shell.header" props={{}} />
                <ConnectionIndicator />
                <ThemeToggle />
                <UserMenu />
              </Group>
            </Group>
          </AppShell.Header>
          <AppShell.Navbar p="xs">
            <Navigation onNavigate={close} />
          </AppShell.Navbar>
          <AppShell.Main id="main" tabIndex={-1}>
            <div style={{ maxWidth: 1400, marginInline: 'auto' }}>
              {manifest.error ? <ProblemView error={manifest.error} onRetry={() => void manifest.refetch()} /> : null}
              {/* The first page waits for the active plugins' bundles (at most PLUGIN_UI_WAIT_MS), as the router would be
                  built after them: their panels and row actions are there when the page is, not added under the reader. */}
              {plugins.settled || manifest.error ? (
                <Suspense>
                  <FeatureGate>{children}</FeatureGate>
                </Suspense>
              ) : (
                <Center py="xl">
                  <Loader size="sm" aria-label="Loading the console" />
                </Center>
              )}
            </div>
          </AppShell.Main>
        </AppShell>
      </StreamProvider>
    </ConsoleUiContext>
  );
}
