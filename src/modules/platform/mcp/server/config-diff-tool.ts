// config_diff: the brokerconfig module's declared configuration against each live node, computed now (the plan the
// console previews, brokerconfig.plan): per node what differs (field, declared, live), the hazards applying it would
// carry, and the nodes that could not be read. Read-only: applying stays a reviewed step in the console or REST.
import { callProcedure } from './procedure-errors.ts';
import { asRow, asRows, pick } from './project.ts';
import { clusterIdArgument, defineTool } from './tool-kit.ts';

/** Differences per node an agent gets at most; the count says how many there are. */
const MAX_DIFFERENCES = 30;

export const configDiffTool = defineTool({
  name: 'config_diff',
  module: 'brokerconfig',
  description: () =>
    'Declared broker configuration (address/security settings, diverts, bridges, queues) against each live node now: what differs, field by field, and the hazards of applying it.',
  arguments: { clusterId: clusterIdArgument },
  annotations: { readOnlyHint: true },
  run: async ({ clusterId }, context) => {
    const plan = asRow(await callProcedure(context, 'brokerconfig.plan', { clusterId }));
    const nodes = asRows(plan.nodes).map((node) => {
      const steps = asRows(node.steps);
      return {
        node: node.nodeName,
        canary: node.canary,
        inSync: steps.length === 0,
        differenceCount: steps.length,
        differences: steps
          .slice(0, MAX_DIFFERENCES)
          .map((step) => pick(step, ['kind', 'key', 'action', 'summary', 'fields'])),
        hazards: asRows(node.hazards).map((hazard) => pick(hazard, ['id', 'level', 'message'])),
      };
    });
    return {
      revision: plan.revision,
      planHash: plan.hash,
      nodes,
      unreadNodes: asRows(plan.unread).map((node) => pick(node, ['nodeName', 'message'])),
      next: 'To apply: preview and apply this plan (by planHash) in the console or over REST; High hazards need acknowledgement by id.',
    };
  },
});
