// The routing screen in a real Chromium against Flotilla started as `npm start` does and a real leased broker: the
// graph draws the queues and the divert this suite created on the broker, the address pattern (in the URL) narrows
// it, clicking a queue shows its facts with a link that opens the queue's own page, and "where would it go?" names
// the receiving queues and highlights them in the graph. The suite names everything under its lease's prefix and
// filters the graph by it: the shared broker holds other suites' addresses at the same time.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import {
  saveScreenshot,
  signInOverApi,
  openSharedConsole,
  pickClusterFrom,
  type ApiSession,
  type SharedConsole,
} from '@test/browser.ts';
import { leaveSharedConsole, registerSingleNodeCluster, waitForQueueScraped } from '@test/browser-cluster.ts';
import { brokerMbean, jolokiaExec } from '@test/jolokia.ts';

const broker = leaseSingleNode();
const names = {
  orders: broker.name('orders'),
  all: broker.name('orders.all'),
  eu: broker.name('orders.eu'),
  copies: broker.name('copies'),
  copy: broker.name('copy-eu'),
};
let session: SharedConsole | undefined;
let app: SharedConsole['app'];
let page: Page;
let api: ApiSession;
let clusterId: string;
const pageErrors: string[] = [];

const url = (path: string) => `${app.baseUrl}${path}`;
const node = () => broker.nodes[0] as BrokerNode;
const mbean = () => brokerMbean(node().name);
const item = (id: string) => page.locator(`[data-testid="routing-node"][data-item-id="${id}"]`);
const graphReady = () => page.locator('[data-testid="routing-canvas"][data-ready="true"]').waitFor({ timeout: 20_000 });
const itemCount = async () => Number(await page.getByTestId('routing-graph').getAttribute('data-items'));

async function createQueue(queue: Record<string, unknown>): Promise<void> {
  await jolokiaExec(node(), mbean(), 'createQueue(java.lang.String,boolean)', [
    JSON.stringify({ durable: true, ...queue }),
    true,
  ]);
}

beforeAll(async () => {
  await createQueue({ name: names.all, address: names.orders, 'routing-type': 'MULTICAST' });
  await createQueue({
    name: names.eu,
    address: names.orders,
    'routing-type': 'MULTICAST',
    'filter-string': "region = 'eu'",
  });
  await createQueue({ name: names.copies, address: names.copies, 'routing-type': 'ANYCAST' });
  await jolokiaExec(node(), mbean(), 'createDivert(java.lang.String)', [
    JSON.stringify({
      name: names.copy,
      address: names.orders,
      'forwarding-address': names.copies,
      exclusive: false,
      'filter-string': "region = 'eu'",
    }),
  ]);
  session = await openSharedConsole();
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 1440, height: 1000 });
  api = await signInOverApi(app.baseUrl);
  clusterId = await registerSingleNodeCluster(app.baseUrl, api, node(), 'routing-cluster');
}, 240_000);

afterAll(async () => {
  await leaveSharedConsole(session, { clusterId });
  // The lease removes the suite's addresses and queues, not its diverts.
  await jolokiaExec(node(), mbean(), 'destroyDivert(java.lang.String)', [names.copy]).catch(() => undefined);
  await broker.stop();
});

describe('the routing screen on a real broker', () => {
  it('draws the queues and the divert on the broker, and the address pattern narrows the graph', async () => {
    await pickClusterFrom(page, url('/routing'), 'routing-cluster', url(`/clusters/${clusterId}/routing`));
    await graphReady();
    const whole = await itemCount();

    await page.getByLabel('Address pattern').fill(`${broker.prefix}#`);
    await page.getByTestId('pattern-apply').click();
    await page.waitForURL((at) => at.searchParams.get('pattern') === `${broker.prefix}#`);
    await item(`divert:${names.copy}`).waitFor();
    await graphReady();
    for (const id of [
      `address:${names.orders}`,
      `address:${names.copies}`,
      `queue:${names.all}`,
      `queue:${names.eu}`,
      `queue:${names.copies}`,
      `divert:${names.copy}`,
    ])
      await item(id).waitFor();
    const filtered = await itemCount();
    expect(filtered).toBeLessThan(whole);
    expect(await item(`queue:${names.eu}`).innerText()).toContain("filter region = 'eu'");
    expect(await item(`divert:${names.copy}`).innerText()).toContain('non-exclusive');
    await saveScreenshot(page, 'routing-graph');

    // Only the copies address: the orders queues are gone, the divert forwarding to it stays (one hop).
    await page.getByLabel('Address pattern').fill(names.copies);
    await page.getByTestId('pattern-apply').click();
    await item(`queue:${names.copies}`).waitFor();
    await expect.poll(() => item(`queue:${names.all}`).count()).toBe(0);
    expect(await itemCount()).toBeLessThan(filtered);
  });

  it('shows a queue’s facts on a click, with a link that opens the queue', async () => {
    await waitForQueueScraped(app.baseUrl, api, clusterId, names.all);
    await page.goto(url(`/clusters/${clusterId}/routing?pattern=${encodeURIComponent(`${broker.prefix}#`)}`));
    await graphReady();
    await item(`queue:${names.all}`).click();
    const facts = page.locator(`[data-testid="routing-facts"][data-item-id="queue:${names.all}"]`);
    await facts.waitFor();
    expect(await facts.innerText()).toContain('MULTICAST');
    expect(await facts.innerText()).toContain(names.orders);
    await facts.getByRole('link', { name: 'Open queue' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/queues/${encodeURIComponent(names.all)}`));
    await page.getByRole('heading', { name: names.all }).first().waitFor({ timeout: 20_000 });
  });

  it('answers where a message would go and highlights the receiving queues in the graph', async () => {
    await page.goto(url(`/clusters/${clusterId}/routing?tab=where&pattern=${encodeURIComponent(`${broker.prefix}#`)}`));
    await page.getByLabel('Address', { exact: true }).fill(names.orders);
    await page.getByTestId('where-add-property').click();
    const row = page.getByTestId('where-property').first();
    await row.getByLabel('Property name').fill('region');
    await row.getByLabel('Property value').fill('eu');
    await page.getByTestId('where-ask').click();

    const answer = page.getByTestId('where-answer');
    await answer.waitFor();
    for (const queue of [names.all, names.eu, names.copies])
      await answer.locator(`[data-testid="where-queue"][data-queue="${queue}"]`).waitFor();
    expect(await answer.getByTestId('where-outcome').first().getAttribute('data-outcome')).toBe('routed');

    await graphReady();
    for (const queue of [names.all, names.eu, names.copies])
      await page.locator(`[data-item-id="queue:${queue}"][data-highlighted="true"]`).waitFor();
    expect(await item(`divert:${names.copy}`).getAttribute('data-highlighted')).toBe('true');
    await saveScreenshot(page, 'routing-where');
    expect(pageErrors).toEqual([]);
  });
});
