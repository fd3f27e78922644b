// The runbook prompts: triage_cluster, investigate_queue, before_you_purge, tune_scrape_load. Each is a runbook an
// agent follows, calling the tools in order. A step whose tool belongs to a feature that is off is kept and says
// which property turns the feature back on, so the agent can tell its operator instead of guessing.
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { NEEDS_ATTENTION } from '@/base/consumer-verdicts.ts';
import { invalidParams, type McpContext } from './tool-kit.ts';

interface Step {
  readonly module: string;
  readonly text: string;
}

interface Runbook {
  readonly prompt: Prompt;
  /** The module the runbook belongs to: absent while it is off. */
  readonly module: string;
  readonly steps: (args: Record<string, string>) => Step[];
}

const RUNBOOKS: Runbook[] = [
  {
    module: 'clusters',
    prompt: {
      name: 'triage_cluster',
      description: 'Find what is wrong with a cluster, worst first',
      arguments: [{ name: 'clusterId', description: 'From cluster_health', required: true }],
    },
    steps: ({ clusterId = '' }) => [
      { module: 'clusters', text: `cluster_health clusterId=${clusterId}: failing nodes, split-brain, capabilities.` },
      { module: 'alerting', text: `activity_log source=alerts clusterId=${clusterId}: what is firing.` },
      {
        module: 'metrics',
        text: `For each verdict in queueVerdicts that needs attention (${NEEDS_ATTENTION.join(', ')}): list_resources kind=queues, then diagnose_queue on the deepest.`,
      },
      {
        module: 'events',
        text: `activity_log source=events clusterId=${clusterId}: recent consumer and binding changes.`,
      },
      {
        module: 'clusters',
        text: 'Report: the problem, its evidence, the one next action. Change nothing without the operator.',
      },
    ],
  },
  {
    module: 'queues',
    prompt: {
      name: 'investigate_queue',
      description: 'Explain why a queue’s backlog is not draining',
      arguments: [
        { name: 'clusterId', description: 'From cluster_health', required: true },
        { name: 'queue', description: 'Queue name', required: true },
      ],
    },
    steps: ({ clusterId = '', queue = '' }) => [
      { module: 'metrics', text: `diagnose_queue clusterId=${clusterId} queue=${queue}: the verdict and its advice.` },
      {
        module: 'metrics',
        text: `metric_series clusterId=${clusterId} queue=${queue}: when depth started growing, in vs out rate.`,
      },
      {
        module: 'resources',
        text: `list_resources clusterId=${clusterId} kind=consumers q=${queue}: who consumes, from where, how much in flight.`,
      },
      {
        module: 'messages',
        text: `browse_messages clusterId=${clusterId} queue=${queue} pageSize=5, then message_body on the oldest: is it a poison message?`,
      },
      {
        module: 'queues',
        text: 'Report the cause and a fix. Any queue_action is previewed first (dryRun defaults to true).',
      },
    ],
  },
  {
    module: 'queues',
    prompt: {
      name: 'before_you_purge',
      description: 'Checks before purging a queue, then the purge with both gates',
      arguments: [
        { name: 'clusterId', description: 'From cluster_health', required: true },
        { name: 'queue', description: 'Queue name', required: true },
      ],
    },
    steps: ({ clusterId = '', queue = '' }) => [
      {
        module: 'messages',
        text: `browse_messages clusterId=${clusterId} queue=${queue}: what would be lost; say so to the operator.`,
      },
      {
        module: 'metrics',
        text: `diagnose_queue clusterId=${clusterId} queue=${queue}: if consumers are only slow, a purge hides the cause.`,
      },
      {
        module: 'queues',
        text: `queue_action clusterId=${clusterId} queue=${queue} action=purge (a dry run): the count per node.`,
      },
      {
        module: 'queues',
        text: 'If it is over safety.bulk-cap, stop and ask; override=true only with the operator’s yes.',
      },
      {
        module: 'queues',
        text: `Only with the operator’s yes: queue_action action=purge dryRun=false confirm=${queue}.`,
      },
      { module: 'audit', text: 'activity_log source=audit: check the purge row and its per-node outcome.' },
    ],
  },
  {
    module: 'scrape',
    prompt: {
      name: 'tune_scrape_load',
      description: 'Balance scrape freshness against broker load',
      arguments: [{ name: 'clusterId', description: 'A cluster to check after the change', required: false }],
    },
    steps: ({ clusterId = '<id>' }) => [
      {
        module: 'settings',
        text: 'flotilla_setting op=list q=scrape: the tier intervals (A: HA 5s, B: first page 15s, C: every page 5m).',
      },
      {
        module: 'clusters',
        text: `cluster_health clusterId=${clusterId}: failing nodes or lastError timeouts mean the brokers are loaded.`,
      },
      {
        module: 'metrics',
        text: `metric_series clusterId=${clusterId}: how many queues; tier C cost grows with them.`,
      },
      {
        module: 'settings',
        text: 'Lengthen tier C first, then B; keep A (failover detection). flotilla_setting op=set key=… value=… previews; dryRun=false applies.',
      },
      {
        module: 'clusters',
        text: 'After a few intervals, cluster_health again: errors should stop, lastSuccessAt stay recent.',
      },
    ],
  },
];

function enabledRunbooks(context: Pick<McpContext, 'registry'>): Runbook[] {
  return RUNBOOKS.filter((runbook) => context.registry.isEnabled(runbook.module));
}

export function promptListing(context: Pick<McpContext, 'registry'>): Prompt[] {
  return enabledRunbooks(context).map((runbook) => runbook.prompt);
}

export function getPrompt(
  name: string,
  args: Record<string, string> | undefined,
  context: Pick<McpContext, 'registry'>,
): GetPromptResult {
  const runbook = enabledRunbooks(context).find((candidate) => candidate.prompt.name === name);
  if (!runbook) {
    const names = enabledRunbooks(context).map((candidate) => candidate.prompt.name);
    throw invalidParams(`There is no prompt ${JSON.stringify(name)} here. Prompts: ${names.join(', ')}.`);
  }
  const given = args ?? {};
  const missing = (runbook.prompt.arguments ?? []).filter((argument) => argument.required && !given[argument.name]);
  if (missing.length > 0)
    throw invalidParams(`${name} needs ${missing.map((argument) => argument.name).join(' and ')}.`);
  const lines = runbook.steps(given).map((step, index) => {
    const entry = context.registry.get(step.module);
    const off =
      entry && !entry.enabled
        ? ` [The ${entry.descriptor.title} feature is off: skip this step and tell the operator that ${entry.enablingProperty}=true (and a restart) turns it on.]`
        : '';
    return `${index + 1}. ${step.text}${off}`;
  });
  return {
    description: runbook.prompt.description,
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: `Runbook ${name}. Follow the steps in order with Flotilla's tools; writes preview by default.\n${lines.join('\n')}`,
        },
      },
    ],
  };
}
