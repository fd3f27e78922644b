// The SQL console's Live source in a real Chromium against a real broker registered through the app: three orders
// sent through the REST API to a queue under the lease's prefix are read by a live query over an address pattern,
// which finds the one order asked for, says per node the queues read and the management POSTs made, and says what
// the brokers were asked to filter; the editor completes the address name after `FROM "`.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import {
  saveScreenshot,
  signInOverApi,
  openSharedConsole,
  type ApiSession,
  type SharedConsole,
} from '@test/browser.ts';
import {
  leaveSharedConsole,
  putSettingOverApi,
  registerSingleNodeCluster,
  waitForQueueScraped,
} from '@test/browser-cluster.ts';
import { emptyQueue } from '@test/broker-leftovers.ts';
import { createAnycastQueue } from '@test/native-test-helpers.ts';

// A pooled broker: every address of this suite is under the lease's prefix.
const broker = leaseSingleNode();
const QUEUE = broker.name('orders.eu');
const QUERY = `SELECT id, properties.orderId FROM "${broker.name('orders.*')}" WHERE properties.orderId = 2`;
let session: SharedConsole | undefined;
let node: BrokerNode;
let app: SharedConsole['app'];
let page: Page;
let api: ApiSession;
let clusterId: string;
const pageErrors: string[] = [];

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const url = (path: string) => `${app.baseUrl}${path}`;
const editor = () => page.locator('[data-testid="sql-editor"] .cm-content');
const cells = (table: string, column: string) =>
  page.locator(`[data-testid="table-${table}"] tbody tr[data-row-key] td[data-column="${column}"]`).allInnerTexts();

async function sendOrder(orderId: number): Promise<void> {
  const response = await fetch(url(`/api/v1/clusters/${clusterId}/messages/send`), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...api.headers },
    body: JSON.stringify({
      address: QUEUE,
      routingType: 'ANYCAST',
      body: { type: 'json', json: { order: orderId } },
      properties: { orderId: { type: 'int', value: orderId } },
    }),
  });
  const sent = (await response.json()) as { result?: { outcome: string } };
  expect(response.status).toBe(200);
  expect(sent.result?.outcome).toBe('SUCCEEDED');
}

beforeAll(async () => {
  session = await openSharedConsole();
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  node = broker.nodes[0] as BrokerNode;
  api = await signInOverApi(app.baseUrl);
  // Tier B lists a new queue within a second instead of fifteen (the live read targets the queues the scrape listed).
  await putSettingOverApi(app.baseUrl, api, 'scrape.tier-b-interval', '1s');
  await createAnycastQueue(node, QUEUE);
  // A retry finds the orders of the attempt before: the queue starts empty.
  await emptyQueue(node, QUEUE);
  clusterId = await registerSingleNodeCluster(app.baseUrl, api, node, 'sql-live-cluster');
  await waitForQueueScraped(app.baseUrl, api, clusterId, QUEUE);
  for (const orderId of [1, 2, 3]) await sendOrder(orderId);
}, 240_000);

afterAll(async () => {
  await leaveSharedConsole(session, { clusterId });
  await broker.stop();
});

describe('the SQL console, live on a real broker', () => {
  it('reads the one order asked for over the address pattern: one queue and one POST on the node', async () => {
    await page.goto(url(`/clusters/${clusterId}/sql`));
    await editor().waitFor();
    await editor().click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(QUERY);
    await page.keyboard.press('Escape');
    // Switching the source to Live runs the editor's query there.
    await page.getByRole('radiogroup', { name: 'Source' }).getByText('Live', { exact: true }).click();
    await page.waitForURL((at) => at.searchParams.get('source') === 'live' && at.searchParams.get('sql') === QUERY);

    const answer = page.locator('[data-testid="sql-answer"][data-source="live"]');
    const failure = page.getByTestId('problem').or(page.getByTestId('sql-syntax-error'));
    await answer.or(failure).first().waitFor({ timeout: 30_000 });
    if (await failure.count()) throw new Error(`the console showed a failure: ${await failure.first().innerText()}`);
    // Two tables (the nodes and the rows): waited for by their rows, the kit's tableLoaded expects one.
    await page.locator('[data-testid="table-sql-rows"] tbody tr[data-row-key]').first().waitFor();
    await page.locator('[data-testid="table-sql-live-nodes"] tbody tr[data-row-key]').first().waitFor();

    expect(await cells('sql-rows', 'properties.orderId')).toEqual(['2']);
    expect(await cells('sql-rows', 'id')).toHaveLength(1);
    expect(await page.getByTestId('sql-age').innerText()).toMatch(/1 row, 3 messages browsed on the brokers/);
    expect(await cells('sql-live-nodes', 'nodeName')).toEqual([node.name]);
    expect(await cells('sql-live-nodes', 'queues')).toEqual(['1']);
    expect(await cells('sql-live-nodes', 'posts')).toEqual(['1']);
    expect(await cells('sql-live-nodes', 'errors')).toEqual(['none']);
    // Without a clear view the property is evaluated in the service, and the line says so.
    expect(await page.getByTestId('sql-selector').innerText()).toMatch(
      /asked for every message .*the rest of the WHERE was evaluated here/,
    );
    await saveScreenshot(page, 'sql-console-live');
  });

  it('completes the address name after FROM "', async () => {
    await editor().click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('SELECT id ');
    // Typed key by key, as a user does: completion opens on typing, not on inserted text.
    await page.keyboard.type(`FROM "${broker.prefix.slice(0, 4)}`);
    const list = page.locator('.cm-tooltip-autocomplete');
    await list.waitFor({ timeout: 10_000 });
    await expect.poll(() => list.locator('li').allInnerTexts()).toContainEqual(expect.stringContaining(QUEUE));
    await saveScreenshot(page, 'sql-console-completion');
    await page.keyboard.press('Enter');
    // The name goes in quoted (the closing quote the editor paired with the typed one may stay behind it).
    await expect.poll(() => editor().innerText()).toMatch(new RegExp(`^SELECT id FROM "${escaped(QUEUE)}"`));
    await page.keyboard.press('Escape');
  });

  it('threw nothing in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
