// Management channel throughput against one real broker on 127.0.0.1 holding 10,000 queues: round trips per second,
// the same reads sent one by one versus in one batched POST (printed as a ratio), and queue listing throughput.
//   npm run bench:broker
import { startSingleNode } from '@test/artemis/index.ts';
import { createQueues, listAll } from '../src/modules/platform/broker/management/broker-operations.ts';
import { ManagementClient, type JolokiaRequest } from '../src/modules/platform/broker/management/management-client.ts';
import { reportFigure } from './report.ts';

const QUEUE_COUNT = 10_000;
const READS = 200;
const LIMITS = { maxConcurrentCalls: 1, maxCallsPerSecond: 1_000, timeoutMs: 300_000 };

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

const topology = await startSingleNode({ name: 'bench', maxHeap: '1G' });
try {
  const node = topology.nodes[0];
  if (!node || !node.managementUrl.startsWith('http://127.0.0.1:'))
    throw new Error('the benchmark talks to loopback only');
  const client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password }, LIMITS);
  const mbean = await client.brokerObjectName();

  const setup = await timed(async () => {
    for (let start = 0; start < QUEUE_COUNT; start += 250) {
      const names = Array.from({ length: 250 }, (_, i) => ({
        name: `bench.q.${String(start + i).padStart(5, '0')}`,
      }));
      await createQueues(client, names);
    }
  });
  console.log(`created ${QUEUE_COUNT} queues in ${(setup.ms / 1000).toFixed(1)} s`);

  const reads: JolokiaRequest[] = Array.from({ length: READS }, (_, i) => ({
    type: 'read',
    mbean,
    attribute: ['Version', 'Active', 'QueueCount', 'ConnectionCount', 'UptimeMillis'][i % 5] as string,
  }));
  await client.call(reads.slice(0, 20)); // warm up the JIT and the HTTP session

  const oneByOne = await timed(async () => {
    for (const read of reads) await client.callOne(read);
  });
  const batched = await timed(() => client.call(reads));
  if (!batched.value.every((result) => result.ok)) throw new Error('a batched read failed');

  const roundTripsPerSecond = READS / (oneByOne.ms / 1000);
  const batchedReadsPerSecond = READS / (batched.ms / 1000);
  console.log(
    `one by one: ${READS} reads in ${oneByOne.ms.toFixed(0)} ms = ${roundTripsPerSecond.toFixed(0)} round trips/s`,
  );
  console.log(
    `batched:    ${READS} reads in one POST, ${batched.ms.toFixed(0)} ms = ${batchedReadsPerSecond.toFixed(0)} reads/s`,
  );
  console.log(`ratio batched/one-by-one: ${(batchedReadsPerSecond / roundTripsPerSecond).toFixed(1)}x`);
  reportFigure({
    id: 'broker.batched-reads',
    figure: `${String(READS)} management reads of a broker holding ${QUEUE_COUNT.toLocaleString('en')} queues: one by one vs one batched POST`,
    target: '—',
    seen: `${oneByOne.ms.toFixed(0)} ms vs ${batched.ms.toFixed(0)} ms (${(batchedReadsPerSecond / roundTripsPerSecond).toFixed(1)}×)`,
  });

  for (const pageSize of [500, 2_000]) {
    const listing = await timed(() => listAll(client, 'queues', { pageSize }, 5));
    const perSecond = listing.value.rows.length / (listing.ms / 1000);
    console.log(
      `listing: ${listing.value.rows.length} queues (page size ${pageSize}, 5 pages per POST) in ${listing.ms.toFixed(0)} ms = ${perSecond.toFixed(0)} queues/s`,
    );
  }
  client.close();
} finally {
  await topology.stop();
}
