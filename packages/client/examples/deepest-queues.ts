// Which queues hold the most messages, across every cluster the token can see: the kind of check a CI job or a cron
// script runs against Flotilla. It lists the clusters, asks each for its queues deepest first, and prints one line a
// queue; with --fail-above N it exits 1 when any queue holds more than N messages.
//
//   FLOTILLA_URL=https://flotilla.example.com FLOTILLA_TOKEN=as_… node --import tsx examples/deepest-queues.ts --top 5
import { parseArgs } from 'node:util';
import { clustersList, flotillaClient, queuesList } from '@flotilla/client';

const { values } = parseArgs({
  options: { top: { type: 'string', default: '10' }, 'fail-above': { type: 'string' } },
});
const top = Number(values.top);
const failAbove = values['fail-above'] === undefined ? undefined : Number(values['fail-above']);
const url = process.env.FLOTILLA_URL;
const token = process.env.FLOTILLA_TOKEN;
if (!url || !token || !Number.isInteger(top) || top < 1 || (failAbove !== undefined && !Number.isFinite(failAbove))) {
  console.error('usage: FLOTILLA_URL=… FLOTILLA_TOKEN=… deepest-queues.ts [--top N] [--fail-above DEPTH]');
  process.exit(2);
}

const client = flotillaClient({ url, token });
const { data: clusters } = await clustersList({ client, throwOnError: true });
let deepest = 0;
for (const cluster of clusters.items) {
  const { data: queues } = await queuesList({
    client,
    throwOnError: true,
    path: { clusterId: cluster.id },
    query: { sort: '-messageCount', pageSize: top },
  });
  for (const queue of queues.items) {
    deepest = Math.max(deepest, queue.messageCount);
    console.log(
      `${cluster.name}\t${queue.queueName}\t${String(queue.messageCount)} messages\t${String(queue.consumerCount)} consumers`,
    );
  }
}
console.log(`${String(clusters.items.length)} clusters, deepest queue ${String(deepest)} messages`);
if (failAbove !== undefined && deepest > failAbove) process.exit(1);
