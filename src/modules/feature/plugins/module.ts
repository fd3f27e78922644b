import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { runtimePermissions } from '@/modules/kernel/plugin/module.ts';
import { settingsRuntimeDeclarations } from '@/modules/kernel/settings/module.ts';
import { streamRuntimeTopics } from '@/modules/kernel/stream/module.ts';
import { mcpRuntimeTools } from '@/modules/platform/mcp/module.ts';

// Runtime plugins (spec: Runtime plugins, Plugin lifecycle). Not to be confused with the kernel's `plugin` module,
// which is the registry of the modules built into Flotilla; this one runs third-party archives uploaded at runtime,
// each validated without running it and then run in a process of its own (ADR 29).
export const pluginsModule = defineModule({
  id: 'plugins',
  title: 'Plugins',
  layer: 'feature',
  description:
    'Third-party plugins uploaded as archives in Admin → Plugins: validated without running anything (entries, sizes, a parsed bundle, plain DDL only), run each in its own child process limited by Node’s permission model, reached through the gateway at /api/v1/p/<id>/**, and changed one operation at a time by installers after step-up re-authentication, with safe mode after three unclean boots.',
  requires: ['core', 'plugin', 'access', 'audit', 'security', 'settings', 'stream', 'clusters', 'scrape', 'governance'],
  // Its plugins' MCP tools are listed while mcp is on (ADR 25: a contribution to a used module's point), and its
  // plugins may read broker events while events is on.
  uses: ['mcp', 'events'],
  permissions: [
    {
      id: 'plugins:read',
      description: 'See the installed plugins, their versions, states and plans',
      includedIn: 'admin',
    },
  ],
  topics: ['plugins'],
  apiPrefixes: ['/api/v1/plugins', '/api/v1/plugin-ui', '/api/v1/p', '/api/v1/clusters/{clusterId}/p'],
  processStart: { load: () => import('./server/process-start.ts') },
  // An archive of up to 5 MiB, base64 in JSON (4/3 of it), and the password beside it.
  largeBodies: [
    { method: 'POST', path: '/api/v1/plugins', maxBytes: 7_200_000 },
    { method: 'POST', path: '/api/trpc/plugins.upload', maxBytes: 7_200_000 },
  ],
  contributions: [
    contribution(streamRuntimeTopics, {
      id: 'plugins',
      load: async () => (await import('./server/host/plugin-topics.ts')).runningPluginTopics,
    }),
    contribution(runtimePermissions, {
      id: 'plugins',
      load: async () => (await import('./server/host/plugin-permissions.ts')).runningPluginPermissions,
    }),
    contribution(settingsRuntimeDeclarations, {
      id: 'plugins',
      load: async () => (await import('./server/host/plugin-settings.ts')).runningPluginSettings,
    }),
    contribution(mcpRuntimeTools, {
      id: 'plugins',
      load: async () => (await import('./server/mcp/plugin-tools.ts')).pluginToolSource,
    }),
  ],
});
