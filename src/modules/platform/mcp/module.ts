import { createExtensionPoint, defineModule } from '@/modules/kernel/plugin/index.ts';
import type { RuntimeToolSourceDeclaration } from './server/runtime-tools.ts';

export type { RuntimeTool, RuntimeToolContext, RuntimeToolSource } from './server/runtime-tools.ts';

/** Tools known only at runtime (a runtime plugin's), listed after the built-in ones and called by name. */
export const mcpRuntimeTools = createExtensionPoint<RuntimeToolSourceDeclaration>({
  id: 'mcp.runtime-tools',
  owner: 'mcp',
  cardinality: 'many',
});

const tool = (name: string) => ({ name, kind: 'tool' as const });

export const mcpModule = defineModule({
  id: 'mcp',
  title: 'MCP',
  layer: 'platform',
  description:
    'POST /mcp for agents: intent-shaped tools over the same procedures as REST (the caller’s permissions, the token as audit actor, dryRun by default, confirm for destructive runs), resources and runbook prompts.',
  requires: ['core', 'access', 'governance'],
  extensionPoints: [mcpRuntimeTools],
  mcp: [
    ...[
      'cluster_health',
      'list_resources',
      'diagnose_queue',
      'metric_series',
      'browse_messages',
      'message_body',
      'query_messages',
      'trace_request_reply',
      'config_diff',
      'route_message',
      'activity_log',
      'queue_action',
      'send_message',
      'alert_rule',
      'flotilla_setting',
      'flotilla_help',
    ].map(tool),
    ...['flotilla://clusters', 'flotilla://permissions', 'cluster://{id}/topology', 'cluster://{id}/capabilities'].map(
      (name) => ({ name, kind: 'resource' as const }),
    ),
    ...['triage_cluster', 'investigate_queue', 'before_you_purge', 'tune_scrape_load'].map((name) => ({
      name,
      kind: 'prompt' as const,
    })),
  ],
});
