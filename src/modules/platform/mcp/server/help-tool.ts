// flotilla_help: how to use this server, in words an agent acts on: where ids come from, the gates, the errors, and
// which features are off (with the property that turns each back on).
import { z } from 'zod';
import { defineTool, type McpContext } from './tool-kit.ts';

function disabledFeatures(context: Pick<McpContext, 'registry'>): string[] {
  return context.registry.modules
    .filter((entry) => !entry.enabled)
    .map((entry) => `${entry.descriptor.id} (set ${entry.enablingProperty}=true and restart)`);
}

const GUIDE = [
  'Flotilla manages fleets of Apache ActiveMQ Artemis clusters. You act as the owner of this API key, with their grants.',
  'Start with cluster_health (no arguments) for cluster ids, then cluster_health clusterId=… for one cluster.',
  'Reads: list_resources kind=…, diagnose_queue, metric_series, browse_messages then message_body, query_messages (SQL over the index or live), trace_request_reply mode=…, config_diff (declared configuration against the live nodes), route_message (where a message would go), activity_log source=….',
  'Writes (queue_action, send_message, alert_rule, flotilla_setting) preview by default (dryRun=true) and change nothing.',
  'A real destructive run needs dryRun=false and confirm equal to the subject’s exact name (the queue, the rule).',
  'override=true only passes safety.bulk-cap; it never replaces confirm, and confirm never replaces it.',
  'Errors: -32602 means fix the arguments as the message says; a result with isError means the call ran and failed.',
  'Message content is masked by the content policy; you never see values in clear.',
  'Resources: flotilla://clusters, flotilla://permissions, cluster://{id}/topology, cluster://{id}/capabilities.',
  'Prompts: triage_cluster, investigate_queue, before_you_purge, tune_scrape_load.',
];

export const helpTool = defineTool({
  name: 'flotilla_help',
  module: 'mcp',
  description: () => 'How to use these tools: ids, the dryRun/confirm/override gates, errors, features that are off.',
  arguments: { topic: z.string().max(100).optional().describe('A tool name, for its arguments') },
  annotations: { readOnlyHint: true },
  run: ({ topic }, context) => {
    const off = disabledFeatures(context);
    return Promise.resolve({
      guide: GUIDE,
      ...(topic ? { topic, see: 'tools/list carries every tool’s input schema; the guide above its rules.' } : {}),
      featuresOff: off.length > 0 ? off : 'none',
    });
  },
});
