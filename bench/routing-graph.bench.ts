// The routing screen with a large graph, in Chromium, on this machine (loopback only): a real broker holds 2,000
// addresses, 5,000 queues and 200 diverts (made in a few bulk Jolokia POSTs), Flotilla runs as `npm start` does on a
// fresh database with that broker registered, and Chromium opens the routing screen. Printed: the time from
// navigation to the graph laid out and interactive (the view's data-ready after its first fitView, then a click on a
// node shows its facts), median and max of RUNS, split into the API's answer (the live read of the broker, merged
// and filtered) and the browser's part (layout, first render, click); the layout alone in Node for comparison; and
// beyond routing.max-graph-items, how long until the screen asks for a filter, and a filtered view drawn.
import { startSingleNode, type BrokerNode } from '@test/artemis/index.ts';
import { AppProcess, freePort } from '@test/app-process.ts';
import { launchBrowser, signInOverApi, type ApiSession } from '@test/browser.ts';
import { putSettingOverApi, registerSingleNodeCluster } from '@test/browser-cluster.ts';
import { brokerMbean, jolokiaBulk } from '@test/jolokia.ts';
import { layOutRoutingGraph } from '../src/modules/feature/routing/ui/graph/layout.ts';
import { buildIfNeeded } from '../src/server/process/build.ts';
import { reportFigure } from './report.ts';
import { createBenchDatabase } from './bench-support.ts';

const ADDRESSES = 2_000;
const QUEUES = 5_000;
const DIVERTS = 200;
const RUNS = 5;
const TARGET_MS = 2_000;
const BATCH = 500;

const GROUPS = 20;
/** Addresses in GROUPS groups, so a pattern (`bench.g07.#`) can draw one twentieth of the graph. */
const addressName = (index: number) =>
  `bench.g${String(index % GROUPS).padStart(2, '0')}.orders.${String(index).padStart(4, '0')}`;

async function populate(node: BrokerNode): Promise<void> {
  const mbean = brokerMbean(node.name);
  const exec = (operation: string, args: unknown[]) => ({ type: 'exec' as const, mbean, operation, arguments: args });
  const queues = Array.from({ length: QUEUES }, (_, index) => {
    const address = addressName(index % ADDRESSES);
    // Every fourth queue of an address is filtered, so the graph shows filters as the fleet's would.
    const filter = index % 4 === 3 ? { 'filter-string': `region = 'r${String(index % 7)}'` } : {};
    return exec('createQueue(java.lang.String,boolean)', [
      JSON.stringify({
        name: `${address}.q${String(index)}`,
        address,
        'routing-type': index % 2 ? 'MULTICAST' : 'ANYCAST',
        durable: false,
        ...filter,
      }),
      true,
    ]);
  });
  const diverts = Array.from({ length: DIVERTS }, (_, index) =>
    exec('createDivert(java.lang.String)', [
      JSON.stringify({
        name: `bench.divert.${String(index)}`,
        address: addressName((index * 10) % ADDRESSES),
        'forwarding-address': addressName((index * 10 + 5) % ADDRESSES),
        exclusive: index % 3 === 0,
        'filter-string': index % 2 ? `priority > ${String(index % 9)}` : null,
      }),
    ]),
  );
  const requests = [...queues, ...diverts];
  const started = performance.now();
  for (let at = 0; at < requests.length; at += BATCH) await jolokiaBulk(node, requests.slice(at, at + BATCH));
  console.log(
    `populated: ${String(ADDRESSES)} addresses, ${String(QUEUES)} queues, ${String(DIVERTS)} diverts in ${String(Math.ceil(requests.length / BATCH))} bulk POSTs, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const stats = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
  };
};
const ms = (value: number) => `${value.toFixed(0)} ms`;

buildIfNeeded(process.cwd());
const broker = await startSingleNode({ maxHeap: '1G' });
const node = broker.nodes[0] as BrokerNode;
const database = await createBenchDatabase();
let app: AppProcess | undefined;
let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
try {
  await populate(node);
  app = AppProcess.start({ port: await freePort(), env: { DATABASE_URL: database.url } });
  await app.waitUntilReady();
  const api: ApiSession = await signInOverApi(app.baseUrl);
  const clusterId = await registerSingleNodeCluster(app.baseUrl, api, node, 'routing-bench');
  const screen = `${app.baseUrl}/clusters/${clusterId}/routing`;

  // The API's answer once, outside the browser: its size, and the layout of that very graph in Node.
  const answer = (await (
    await fetch(`${app.baseUrl}/api/v1/clusters/${clusterId}/routing/graph`, { headers: api.headers })
  ).json()) as { graph: Parameters<typeof layOutRoutingGraph>[0]; counts: Record<string, number>; tooLarge: boolean };
  if (answer.tooLarge) throw new Error('the graph came back too large: raise routing.max-graph-items');
  const layoutStarted = performance.now();
  const layout = layOutRoutingGraph(answer.graph);
  console.log(
    `graph: ${String(answer.graph.items.length)} items, ${String(answer.graph.edges.length)} edges (${JSON.stringify(answer.counts)}); layout in Node ${ms(performance.now() - layoutStarted)}, ${String(layout.components)} components`,
  );

  browser = await launchBrowser();
  await browser.context.addCookies(api.cookies.map((cookie) => ({ ...cookie, url: app?.baseUrl ?? '' })));
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1440, height: 1000 });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  /** One navigation: total to interactive, the graph request's end, and the ready mark, all from navigation start. */
  async function openGraph(): Promise<{ total: number; apiEnd: number; ready: number }> {
    const started = performance.now();
    await page.goto(screen, { waitUntil: 'commit' });
    await page.locator('[data-testid="routing-canvas"][data-ready="true"]').waitFor({ timeout: 60_000 });
    const ready = await page.evaluate(() => performance.now());
    const first = page.locator('[data-testid="routing-node"]').first();
    const id = await first.getAttribute('data-item-id');
    await first.click();
    await page.locator(`[data-testid="routing-facts"][data-item-id="${id ?? ''}"]`).waitFor({ timeout: 30_000 });
    const total = performance.now() - started;
    const apiEnd = await page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes('routing.graph'))
          .map((entry) => (entry as PerformanceResourceTiming).responseEnd)
          .sort((a, b) => a - b)[0] ?? NaN,
    );
    return { total, apiEnd, ready };
  }

  await openGraph(); // warm-up: the route's code compiled and cached, the broker read once
  const runs = [];
  for (let run = 0; run < RUNS; run++) runs.push(await openGraph());
  const total = stats(runs.map((run) => run.total));
  const apiEnd = stats(runs.map((run) => run.apiEnd));
  const browserPart = stats(runs.map((run) => run.total - run.apiEnd));
  const readyAfterApi = stats(runs.map((run) => run.ready - run.apiEnd));
  console.log(
    `navigation → laid out and interactive (a click shows facts), ${String(RUNS)} runs: median ${ms(total.median)}, max ${ms(total.max)}`,
  );
  console.log(`  of which the graph API answered after: median ${ms(apiEnd.median)}, max ${ms(apiEnd.max)}`);
  const broker = `a real broker with ${ADDRESSES.toLocaleString('en')} addresses, ${QUEUES.toLocaleString('en')} queues and ${String(DIVERTS)} diverts`;
  reportFigure({
    id: 'routing.screen-interactive',
    figure: `The routing screen in Chromium for ${broker} (${String(answer.graph.items.length)} items, ${String(answer.graph.edges.length)} edges): navigation → laid out and interactive (a click shows an item's facts), ${String(RUNS)} runs`,
    target: `< ${String(TARGET_MS / 1_000)} s (the max)`,
    seen: `median ${ms(total.median)}, max ${ms(total.max)}; the graph API answered after median ${ms(apiEnd.median)}, the browser's part median ${ms(browserPart.median)}`,
    holds: total.max < TARGET_MS,
  });
  console.log(
    `  the browser's part after the answer (layout, render, fitView, click → facts): median ${ms(browserPart.median)}, max ${ms(browserPart.max)}; to data-ready alone: median ${ms(readyAfterApi.median)}, max ${ms(readyAfterApi.max)}`,
  );

  // Beyond the cap: the answer carries counts only and the screen asks for a pattern instead of drawing.
  await putSettingOverApi(app.baseUrl, api, 'routing.max-graph-items', 5_000);
  const capped = performance.now();
  await page.goto(screen, { waitUntil: 'commit' });
  await page.getByTestId('routing-too-large').waitFor({ timeout: 60_000 });
  const askedAfter = performance.now() - capped;
  const drawnWhenCapped = await page.locator('[data-testid="routing-node"]').count();
  console.log(
    `beyond routing.max-graph-items (set to 5,000): the screen asks for a filter after ${ms(askedAfter)}, ${String(drawnWhenCapped)} nodes drawn: "${(await page.getByTestId('routing-too-large').innerText()).replace(/\s+/g, ' ')}"`,
  );
  const filtered = performance.now();
  await page.goto(`${screen}?pattern=${encodeURIComponent('bench.g07.#')}`, { waitUntil: 'commit' });
  await page.locator('[data-testid="routing-canvas"][data-ready="true"]').waitFor({ timeout: 60_000 });
  const filteredItems = await page.getByTestId('routing-graph').getAttribute('data-items');
  const filteredMs = performance.now() - filtered;
  console.log(
    `  with the pattern bench.g07.#: ${filteredItems ?? '?'} items laid out and ready after ${ms(filteredMs)}`,
  );
  reportFigure({
    id: 'routing.beyond-max-items',
    figure: `The same screen beyond routing.max-graph-items (set to 5,000), and with a pattern (bench.g07.#)`,
    target: 'asks for a filter instead of freezing',
    seen: `asked for a pattern after ${ms(askedAfter)}, ${String(drawnWhenCapped)} nodes drawn; the pattern's ${filteredItems ?? '?'} items laid out and interactive after ${ms(filteredMs)}`,
    holds: drawnWhenCapped === 0,
  });
  if (errors.length) console.log(`page errors: ${errors.join(' | ')}`);
} finally {
  await browser?.close();
  await app?.destroy();
  await broker.stop();
  await database.drop();
}
