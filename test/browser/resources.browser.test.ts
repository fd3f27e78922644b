// Resources in a real Chromium against Flotilla started as `npm start` does, with a real broker: a consumer opening
// on the Consumers screen appears without a reload with its client id and address, and closing it removes it
// through the stream; the queue page's consumers panel names its host; an address filled past its max-size shows
// as paging with a warning on the node page and on the cluster overview; a consumer's row menu opens its
// connection, which lists the consumer; a connection closed from its row menu (previewed, held) leaves the list; an
// address created from the Addresses screen is deleted again from its row menu.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import {
  saveScreenshot,
  signInOverApi,
  openSharedConsole,
  tableLoaded,
  type ApiSession,
  type SharedConsole,
  pressAndHold,
} from '@test/browser.ts';
import { leaveSharedConsole, registerSingleNodeCluster, waitForQueueScraped } from '@test/browser-cluster.ts';
import { ensureAnycastQueue } from '@test/broker-leftovers.ts';
import { brokerMbean, jolokia } from '@test/jolokia.ts';
import { openOwnConsumer } from '@test/named-client.ts';
import { sendDurableMessages, uniqueName } from '@test/native-test-helpers.ts';

let session: SharedConsole | undefined;
// A pooled broker: every address of this suite is under the lease's prefix.
const broker = leaseSingleNode();
const WATCHED = broker.name('orders.watch');
const PANEL = broker.name('orders.panel');
const PAGED = broker.name('paged.orders');
const CLOSING = broker.name('orders.close');
let node: BrokerNode;
let app: SharedConsole['app'];
let page: Page;
let api: ApiSession;
let clusterId: string;

const url = (path: string) => `${app.baseUrl}${path}`;

beforeAll(async () => {
  session = await openSharedConsole();
  ({ app, page } = session);
  node = broker.nodes[0] as BrokerNode;
  api = await signInOverApi(app.baseUrl);
  // The consumer signals come from the notification subscription.
  clusterId = await registerSingleNodeCluster(app.baseUrl, api, node, 'resources-cluster', { untilSubscribed: true });
}, 240_000);

afterAll(async () => {
  await leaveSharedConsole(session, { clusterId });
  await broker.stop();
});

describe('resources console', () => {
  it('shows a consumer arrive and leave on the Consumers screen without a reload, and opens its connection', async () => {
    // Each test's queue is there already on a retry.
    await ensureAnycastQueue(node, WATCHED);
    await page.goto(url(`/clusters/${clusterId}/consumers?queue=${WATCHED}`));
    await tableLoaded(page);
    await page.locator('[data-testid="stream-state"][data-state="connected"]').waitFor({ timeout: 30_000 });
    const rows = page.getByTestId('table-consumers').locator('tbody tr');
    expect(await page.getByTestId('live-age').innerText()).toMatch(/Read from 1 serving node/);

    const consumer = await openOwnConsumer(node, WATCHED, 'watch-client');
    let closed = false;
    try {
      const row = rows.filter({ hasText: 'watch-client' });
      await row.waitFor({ timeout: 20_000 });
      expect(await row.innerText()).toContain(`127.0.0.1:${String(consumer.localPort)}`);
      expect(await row.innerText()).toContain(node.name);
      await saveScreenshot(page, 'consumers');

      // The row menu (consumer.actions) opens the consumer's connection, which lists it.
      await row.getByRole('button', { name: /^Actions for/ }).click();
      await page.getByRole('menuitem', { name: 'Open connection' }).click();
      await page.getByTestId('connection-facts').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('connection-facts').innerText()).toContain('watch-client');
      expect(await page.getByTestId('table-connection-consumers').innerText()).toContain(WATCHED);
      await page.goBack();
      await row.waitFor({ timeout: 20_000 });

      await consumer.close();
      closed = true;
      // No reload: the close is a notification, its signal refreshes the screen.
      await row.waitFor({ state: 'detached', timeout: 20_000 });
    } finally {
      // A retry must not find this attempt's watch-client still listed beside its own.
      if (!closed) await consumer.close();
    }
  });

  it('names the hosts consuming a queue on its page', async () => {
    await ensureAnycastQueue(node, PANEL);
    await waitForQueueScraped(app.baseUrl, api, clusterId, PANEL);
    const consumer = await openOwnConsumer(node, PANEL, 'panel-client');
    try {
      await page.goto(url(`/clusters/${clusterId}/queues/${PANEL}`));
      const panel = page.getByTestId('queue-consumers');
      await panel.locator('tbody tr', { hasText: 'panel-client' }).waitFor({ timeout: 20_000 });
      expect(await panel.getByTestId('queue-consumers-summary').innerText()).toMatch(/1 consumer from 1 host/);
    } finally {
      await consumer.close();
    }
  });

  it('shows an address filled past its max-size as paging on the node page and the cluster overview', async () => {
    await jolokia(node, {
      type: 'exec',
      mbean: brokerMbean(node.name),
      operation: 'addAddressSettings(java.lang.String,java.lang.String)',
      arguments: [
        broker.name('paged.#'),
        JSON.stringify({ maxSizeBytes: 20_480, pageSizeBytes: 4_096, addressFullMessagePolicy: 'PAGE' }),
      ],
    });
    await ensureAnycastQueue(node, PAGED);
    await sendDurableMessages(node, PAGED, 200);
    const nodes = (await (
      await fetch(url(`/api/v1/clusters/${clusterId}/nodes`), { headers: api.headers })
    ).json()) as {
      items: Array<{ id: string }>;
    };
    const nodeId = nodes.items[0]?.id ?? '';
    await page.goto(url(`/clusters/${clusterId}/nodes/${nodeId}`));
    await page.locator('[data-testid="node-warning"][data-code="paging"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="node-warning"][data-code="paging"]').innerText()).toContain(PAGED);
    await page.locator(`tr[data-address="${PAGED}"]`).waitFor();
    await saveScreenshot(page, 'node-facts');

    await page.goto(url(`/clusters/${clusterId}`));
    const overview = page.getByTestId('cluster-node-facts');
    await overview.locator('[data-testid="node-warning"][data-code="paging"]').waitFor({ timeout: 30_000 });
    expect(await overview.getByTestId('node-facts').innerText()).toMatch(/artemis 2\.\d+/i);
  });

  it('closes a connection from its row menu: previewed on its node, held, and it leaves the list', async () => {
    await ensureAnycastQueue(node, CLOSING);
    // The broker closes this client's connection; nothing of the test closes it. A client id of this attempt's own:
    // a retry may find its first attempt's client still connected.
    const client = uniqueName('close-client');
    await openOwnConsumer(node, CLOSING, client);
    await page.goto(url(`/clusters/${clusterId}/connections?q=close-client`));
    await tableLoaded(page);
    const row = page.getByTestId('table-connections').locator('tbody tr', { hasText: client });
    // The list is shared for resources.cache-ttl (5 s). A retry reads it right after its first attempt did: the copy
    // from before this client connected may be served, and the page may connect its stream after the signal that
    // ended that copy. Read again until the client is listed.
    await expect
      .poll(
        async () => {
          if ((await row.count()) === 0) {
            await page.reload();
            await tableLoaded(page);
          }
          return row.count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(1);

    await row.getByRole('button', { name: /^Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Close connection…' }).click();
    await page.waitForURL(/operate=close/);
    await page.getByTestId('connection-facts').waitFor({ timeout: 20_000 });
    const dialog = page.getByRole('dialog', { name: /^Close connection / });
    await dialog
      .locator(`[data-testid="command-preview"] tr[data-node="${node.name}"][data-outcome="WOULD_APPLY"]`)
      .waitFor();
    const outcome = dialog.getByTestId('operation-outcome');
    await pressAndHold(dialog.getByRole('button', { name: 'Hold to close 1 connection (press and hold)' }), outcome);
    expect(await outcome.getAttribute('data-outcome')).toBe('SUCCEEDED');
    await saveScreenshot(page, 'connection-closed');

    await dialog.getByRole('link', { name: 'Back to the connections' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/connections`));
    await tableLoaded(page);
    await page.getByTestId('table-connections').locator('tbody tr', { hasText: client }).waitFor({
      state: 'detached',
      timeout: 20_000,
    });
  });

  it('creates an address from the Addresses screen and deletes it from its row menu, with force explained', async () => {
    // A name of this attempt's own: a retry may find its first attempt's address still there.
    const address = broker.name(uniqueName('made.by.console'));
    await page.goto(url(`/clusters/${clusterId}/addresses`));
    await tableLoaded(page);
    await page.getByRole('button', { name: 'Create address' }).click();
    const create = page.getByRole('dialog', { name: 'Create an address' });
    await create.getByLabel('Name').fill(address);
    await create.getByRole('button', { name: 'Preview' }).click();
    await create.getByRole('button', { name: 'Create on 1 node' }).click();
    await create.locator('[data-testid="operation-outcome"][data-outcome="SUCCEEDED"]').waitFor();
    await create.getByRole('button', { name: 'Close' }).click();

    await page.goto(url(`/clusters/${clusterId}/addresses?q=${address}`));
    const row = page.getByTestId('table-addresses').locator('tbody tr', { hasText: address });
    await row.waitFor({ timeout: 20_000 });
    await row.getByRole('button', { name: /^Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Delete address…' }).click();
    const remove = page.getByRole('dialog', { name: `Delete address ${address}` });
    // Force is offered with what it takes along.
    await remove.getByText(/with all of its messages/).waitFor();
    await remove.getByRole('button', { name: 'Preview' }).click();
    const outcome = remove.getByTestId('operation-outcome');
    await pressAndHold(remove.getByRole('button', { name: 'Hold to delete 1 address (press and hold)' }), outcome);
    expect(await outcome.getAttribute('data-outcome')).toBe('SUCCEEDED');
    await remove.getByRole('link', { name: 'Back to the addresses' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/addresses`));
    await tableLoaded(page);
    // The list may still show the address until its next answer.
    await expect
      .poll(() => page.getByTestId('table-addresses').locator('tbody tr', { hasText: address }).count())
      .toBe(0);
  });
});
