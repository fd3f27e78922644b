// One address across the serving nodes: on each, its row, the queues bound to it (with routing type and filter)
// and the address settings in effect there (the broker resolves the match hierarchy), one POST a node. Names and
// filters leave through the content policy.
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { readAddressDetail } from '@/modules/platform/broker/index.ts';
import { governFields } from '@/modules/platform/governance/index.ts';
import { askServingNodes } from './live-nodes.ts';
import { outcomeOf, requireSomeAnswer, type ResourcesRuntime } from './live-read.ts';
import { addressRow, text } from './resource-rows.ts';
import { RESOURCES_SETTINGS } from './resources.settings.ts';

export async function readAddress(runtime: ResourcesRuntime, clusterId: string, address: string, clear: boolean) {
  const maxRows = runtime.settings.integer(RESOURCES_SETTINGS.maxRowsPerNode);
  const answers =
    (await askServingNodes(runtime, clusterId, (client) => readAddressDetail(client, address, maxRows))) ?? [];
  await requireSomeAnswer(runtime, clusterId, answers);
  const nodes = answers.flatMap((answer) => {
    if (!answer.ok) return [];
    const detail = answer.value;
    if (!detail.address) return [];
    return [
      {
        ...addressRow(answer.node, detail.address),
        bindings: detail.queues.rows.map((queue) => ({
          queue: text(queue.name),
          routingType: text(queue.routingType).toUpperCase(),
          filter: text(queue.filter) || null,
          durable: text(queue.durable) === 'true',
          messageCount: Number(text(queue.messageCount)) || 0,
          consumerCount: Number(text(queue.consumerCount)) || 0,
        })),
        settings: detail.settings,
      },
    ];
  });
  if (nodes.length === 0) {
    throw new ProblemError({
      type: 'address-not-found',
      title: 'No such address',
      status: 404,
      detail: `No serving node of the cluster has the address ${address}.`,
    });
  }
  const view = { clear };
  const named = await governFields(runtime, [{ name: address }], ['name'], view);
  const shown = await governFields(runtime, nodes, ['key', 'name'], view);
  const bindings = await Promise.all(
    shown.rows.map((node) => governFields(runtime, node.bindings, ['queue', 'filter'], view)),
  );
  return {
    name: named.rows[0]?.name ?? '',
    nodes: shown.rows.map((node, index) => ({ ...node, bindings: bindings[index]?.rows ?? [] })),
    governed: [named, shown, ...bindings].flatMap((one) => one.governed),
    failedNodes: answers.filter((answer) => !answer.ok).map(outcomeOf),
    fetchedAt: new Date().toISOString(),
  };
}
