// Messages and queue operations in a real Chromium against Flotilla started as `npm start` does, with a real broker:
// a message sent through the send form (previewed first) shows in the queue's message browser, read natively (the
// channel badge says so), and its drawer shows the JSON body pretty-printed and the typed properties; the queue
// page's Operate → Purge previews the per-node count, a short click does nothing, the held button empties the queue;
// over the bulk cap the server refuses after the hold and the override is offered and held again; Create queue and
// Pause (kept across restarts) are previewed, then applied without a hold. One message is deleted from its drawer
// (read over the management channel for the broker's id, held, the page and the broker one fewer); "Show in clear"
// says the view is audited; a MANAGEMENT_WRITE the ledger holds UNAVAILABLE disables the writes with the reason,
// in the Operate menu and in the grid's row menu.
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
import {
  leaveSharedConsole,
  putSettingOverApi,
  registerSingleNodeCluster,
  waitForQueueScraped,
} from '@test/browser-cluster.ts';
import { emptyQueue, resumeQueue } from '@test/broker-leftovers.ts';
import { queryDatabase } from '@test/database.ts';
import {
  createAnycastQueue,
  messageCount,
  sendDurableMessages,
  uniqueName,
  waitFor,
} from '@test/native-test-helpers.ts';

// A pooled broker: every address of this suite is under the lease's prefix.
const broker = leaseSingleNode();
const QUEUE = broker.name('orders.browse');
let session: SharedConsole | undefined;
let node: BrokerNode;
let app: SharedConsole['app'];
let page: Page;
let api: ApiSession;
let clusterId: string;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const url = (path: string) => `${app.baseUrl}${path}`;

const putSetting = (key: string, value: unknown) => putSettingOverApi(app.baseUrl, api, key, value);

beforeAll(async () => {
  session = await openSharedConsole();
  ({ app, page } = session);
  node = broker.nodes[0] as BrokerNode;
  api = await signInOverApi(app.baseUrl);
  // Tier B lists a new queue (and a purged queue's depth) within a second instead of fifteen.
  await putSetting('scrape.tier-b-interval', '1s');
  await createAnycastQueue(node, QUEUE);
  // The native channel serves browses while the worker's notification subscription of the node is live.
  clusterId = await registerSingleNodeCluster(app.baseUrl, api, node, 'messages-cluster', { untilSubscribed: true });
  await waitForQueueScraped(app.baseUrl, api, clusterId, QUEUE);
}, 240_000);

afterAll(async () => {
  await leaveSharedConsole(session, { clusterId, settings: ['safety.bulk-cap'] });
  await broker.stop();
});

describe('messages console', () => {
  it('sends a message through the send form and shows it in the browser, natively, with its body', async () => {
    // A retry finds the message its first attempt sent: the browser must start empty.
    await emptyQueue(node, QUEUE);
    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}`));
    await page.getByTestId('queue-messages-panel').getByRole('link', { name: 'Browse messages' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/queues/${QUEUE}/messages`));
    await tableLoaded(page);
    await page.getByTestId('empty-state').waitFor();

    await page.getByRole('button', { name: 'Send message' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a message' });
    expect(await dialog.getByLabel('Address').inputValue()).toBe(QUEUE);
    await dialog.getByText('JSON', { exact: true }).click();
    await dialog.getByLabel('Body', { exact: true }).fill('{"order":42,"item":"tea"}');
    await dialog.getByRole('button', { name: 'Add property' }).click();
    await dialog.getByLabel('Property 1 name').fill('attempt');
    await dialog.getByLabel('Property 1 type').click();
    await page.getByRole('option', { name: 'int', exact: true }).click();
    await dialog.getByLabel('Property 1 value').fill('3');
    expect(await dialog.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);

    // Preview: a dry run, nothing sent; then Send sends exactly what was previewed.
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const preview = dialog.getByTestId('send-preview');
    await preview.waitFor();
    expect(await preview.innerText()).toMatch(new RegExp(`Would go to ${escaped(QUEUE)} through\\s+${node.name}`));
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    const outcome = dialog.getByTestId('send-outcome');
    await outcome.waitFor();
    expect(await outcome.innerText()).toMatch(new RegExp(`Went to ${escaped(QUEUE)} through\\s+${node.name}`));
    expect(await outcome.getByTestId('message-body').innerText()).toContain('"item": "tea"');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The list follows without a reload, read natively.
    const rows = page.getByTestId('table-messages').locator('tbody tr[data-message-id]');
    await rows.first().waitFor({ timeout: 20_000 });
    expect(await rows.count()).toBe(1);
    const badge = page.getByTestId('channel-badge');
    expect(await badge.getAttribute('data-channel')).toBe('native');
    expect(await badge.textContent()).toBe('native');
    expect(await page.getByTestId('messages-age').innerText()).toContain(`Read from ${node.name}`);
    await saveScreenshot(page, 'messages-browser');

    await rows
      .first()
      .getByRole('button', { name: /^Open message/ })
      .click();
    const drawer = page.getByTestId('message-details');
    await drawer.waitFor();
    expect(await drawer.getByTestId('message-body').innerText()).toBe('{\n  "order": 42,\n  "item": "tea"\n}');
    expect(await drawer.getByTestId('message-properties').innerText()).toMatch(/attempt\s+3\s*int/);
    await page.waitForTimeout(400); // the drawer slides in
    await saveScreenshot(page, 'message-drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });

  it('purges the queue from its page: preview per node, hold, and the queue empties', async () => {
    // A retry finds the queue purged, or holding its first attempt's three more: back to the test above's one.
    if ((await messageCount(node, QUEUE)) !== 1) {
      await emptyQueue(node, QUEUE);
      await sendDurableMessages(node, QUEUE, 1);
    }
    await sendDurableMessages(node, QUEUE, 3);
    await waitFor('four messages on the broker', async () =>
      (await messageCount(node, QUEUE)) === 4 ? true : undefined,
    );
    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}`));
    await page.getByRole('button', { name: 'Operate' }).click();
    await page.getByRole('menuitem', { name: 'Purge…' }).click();
    await page.waitForURL(/operate=purge/);

    const dialog = page.getByRole('dialog', { name: `Purge ${QUEUE}` });
    const previewRow = dialog.locator(`[data-testid="command-preview"] tr[data-node="${node.name}"]`);
    await previewRow.waitFor();
    expect(await previewRow.getAttribute('data-outcome')).toBe('WOULD_APPLY');
    expect(await previewRow.locator('[data-column="estimate"]').innerText()).toBe('4');
    expect(await dialog.getByTestId('preview-total').innerText()).toBe('4');
    expect(await dialog.getByTestId('preview-cap').innerText()).toContain('1,000');

    const hold = dialog.getByRole('button', { name: 'Hold to purge 4 messages (press and hold)' });
    // A short click does nothing.
    await hold.click();
    await page.waitForTimeout(2_000);
    expect(await messageCount(node, QUEUE)).toBe(4);
    await saveScreenshot(page, 'queue-purge-preview');

    const outcome = dialog.getByTestId('operation-outcome');
    await pressAndHold(hold, outcome);
    expect(await outcome.getAttribute('data-outcome')).toBe('SUCCEEDED');
    const done = outcome.locator(`tr[data-node="${node.name}"]`);
    expect(await done.getAttribute('data-outcome')).toBe('APPLIED');
    expect(await done.locator('[data-column="count"]').innerText()).toBe('4');
    expect(await outcome.getByTestId('audit-link').getAttribute('href')).toBe(
      `/audit?action=queue.purge&q=${QUEUE}&dryRun=false`,
    );
    await saveScreenshot(page, 'queue-purge-done');
    expect(await messageCount(node, QUEUE)).toBe(0);

    // The page's totals follow the next listing.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL((current) => !current.search.includes('operate'));
    await page.getByTestId('total-messages').filter({ hasText: /^0$/ }).waitFor({ timeout: 20_000 });
  });

  it('over the bulk cap, refuses after the hold and offers the override, held again', async () => {
    await putSetting('safety.bulk-cap', 2);
    // A retry finds its first attempt's three messages, and perhaps a dialog open: an empty queue, a fresh page.
    await emptyQueue(node, QUEUE);
    await sendDurableMessages(node, QUEUE, 3);
    await waitFor('three messages on the broker', async () =>
      (await messageCount(node, QUEUE)) === 3 ? true : undefined,
    );
    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}`));
    await page.getByRole('button', { name: 'Operate' }).click();
    await page.getByRole('menuitem', { name: 'Delete messages…' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete messages of ${QUEUE}` });
    // A form: nothing is counted until Preview.
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByTestId('operation-preview').waitFor();
    expect(await dialog.getByTestId('preview-total').innerText()).toBe('3');
    expect(await dialog.getByTestId('preview-cap').innerText()).toContain('Bulk cap 2');

    const capped = dialog.getByTestId('operation-capped');
    await pressAndHold(dialog.getByRole('button', { name: 'Hold to delete 3 messages (press and hold)' }), capped);
    expect(await capped.innerText()).toMatch(/affect 3 messages, over the bulk cap of 2/);
    expect(await messageCount(node, QUEUE)).toBe(3);
    const again = capped.getByRole('button', { name: 'Hold to delete 3 messages (press and hold)' });
    expect(await again.isDisabled()).toBe(true);
    await capped.getByLabel(/Override the cap/).check();
    await saveScreenshot(page, 'queue-delete-capped');
    const outcome = dialog.getByTestId('operation-outcome');
    await pressAndHold(again, outcome);
    expect(await outcome.getAttribute('data-outcome')).toBe('SUCCEEDED');
    expect(await outcome.locator(`tr[data-node="${node.name}"] [data-column="count"]`).innerText()).toBe('3');
    expect(await messageCount(node, QUEUE)).toBe(0);
  });

  it('creates a queue from the cluster’s queues, and pauses one across restarts, each previewed first', async () => {
    // A retry finds the queue its first attempt created, and the other one paused: a name of its own, a resume.
    const created = broker.name(uniqueName('orders.created'));
    await resumeQueue(node, QUEUE);
    await page.goto(url(`/clusters/${clusterId}/queues`));
    await page.getByRole('button', { name: 'Create queue' }).click();
    const create = page.getByRole('dialog', { name: 'Create a queue' });
    await create.getByLabel('Name').fill(created);
    await create.getByRole('button', { name: 'Preview' }).click();
    await create.locator('[data-testid="command-preview"] tr[data-outcome="WOULD_APPLY"]').waitFor();
    await create.getByRole('button', { name: 'Create on 1 node' }).click();
    await create.locator('[data-testid="operation-outcome"][data-outcome="SUCCEEDED"]').waitFor();
    expect(await messageCount(node, created)).toBe(0);
    await create.getByRole('button', { name: 'Close' }).click();

    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}?operate=pause`));
    const pause = page.getByRole('dialog', { name: `Pause ${QUEUE}` });
    await pause.getByLabel('Keep it paused across broker restarts').check();
    await pause.getByRole('button', { name: 'Preview' }).click();
    expect(await pause.getByTestId('operation-preview').innerText()).toContain('stay stopped across restarts');
    await pause.getByRole('button', { name: 'Pause on 1 node' }).click();
    await pause.locator('[data-testid="operation-outcome"][data-outcome="SUCCEEDED"]').waitFor();
    await pause.getByRole('button', { name: 'Close' }).click();
    // The next listing says it is paused, and the menu offers Resume instead.
    await page.getByText('paused', { exact: true }).first().waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Operate' }).click();
    await page.getByRole('menuitem', { name: 'Resume…' }).waitFor();
  });

  it('deletes one message from its drawer on its node: held, then the page and the broker hold one fewer', async () => {
    // A retry finds the two messages its first attempt left.
    await emptyQueue(node, QUEUE);
    await sendDurableMessages(node, QUEUE, 3);
    await waitFor('three messages on the broker', async () =>
      (await messageCount(node, QUEUE)) === 3 ? true : undefined,
    );
    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}/messages`));
    const rows = page.getByTestId('table-messages').locator('tbody tr[data-message-id]');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(3);

    // Read natively, a message carries its AMQP id, not the broker's: the drawer offers the management channel.
    await rows
      .first()
      .getByRole('button', { name: /^Open message/ })
      .click();
    const actions = page.getByTestId('message-actions');
    await actions.getByTestId('message-actions-need-id').waitFor();
    expect(await actions.getByRole('button', { name: 'Delete…' }).isDisabled()).toBe(true);
    await actions.getByRole('button', { name: 'Read this page over management' }).click();
    await page.waitForURL(/selector=TRUE/);
    await page.locator('[data-testid="channel-badge"][data-channel="management"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(3);

    const victim = (await rows.nth(1).getAttribute('data-message-id')) ?? '';
    expect(victim).toMatch(/^\d+$/);
    await rows
      .nth(1)
      .getByRole('button', { name: /^Open message/ })
      .click();
    await actions.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete message ${victim} of ${QUEUE}` });
    const previewRow = dialog.locator(`[data-testid="command-preview"] tr[data-node="${node.name}"]`);
    await previewRow.waitFor();
    expect(await previewRow.getAttribute('data-outcome')).toBe('WOULD_APPLY');
    const outcome = dialog.getByTestId('operation-outcome');
    await pressAndHold(dialog.getByRole('button', { name: 'Hold to delete 1 message (press and hold)' }), outcome);
    expect(await outcome.getAttribute('data-outcome')).toBe('SUCCEEDED');
    expect(await outcome.locator(`tr[data-node="${node.name}"] [data-column="count"]`).innerText()).toBe('1');
    await saveScreenshot(page, 'message-delete-done');
    expect(await messageCount(node, QUEUE)).toBe(2);

    // Closing the outcome closes the drawer; the page was read again without the message.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('message-details').waitFor({ state: 'detached' });
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
    expect(await page.locator(`tbody tr[data-message-id="${victim}"]`).count()).toBe(0);
  });

  it('shows values in clear on request, with a banner that the view is audited', async () => {
    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}/messages`));
    await tableLoaded(page);
    expect(await page.getByTestId('clear-banner').count()).toBe(0);
    // The switch follows the URL: click, then wait for the URL.
    await page.getByRole('switch', { name: /Show in clear/ }).click();
    await page.waitForURL(/clear=true/);
    await page.getByTestId('clear-banner').waitFor();
    expect(await page.getByTestId('clear-banner').innerText()).toMatch(/audited/);
    await tableLoaded(page);
    expect(await page.getByTestId('clear-refused').count()).toBe(0);
    await page.getByRole('switch', { name: /Show in clear/ }).click();
    await page.waitForURL((current) => !current.search.includes('clear='));
    await page.getByTestId('clear-banner').waitFor({ state: 'detached' });
  });

  it('disables the writes with the reason when the ledger holds MANAGEMENT_WRITE unavailable', async () => {
    const databaseUrl = session?.database.url ?? '';
    await queryDatabase(
      databaseUrl,
      `UPDATE cluster_capability SET value = 'UNAVAILABLE', detail = $2, snippet = $3
        WHERE cluster_id = $1 AND capability = 'MANAGEMENT_WRITE'`,
      [clusterId, 'the broker refused a write for role viewer', '<permission type="manage" roles="amq"/>'],
    );
    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}`));
    const operate = page.getByRole('button', { name: 'Operate' });
    await page.locator('button[data-capability="UNAVAILABLE"]').filter({ hasText: 'Operate' }).waitFor();
    await operate.click();
    const menu = page.getByTestId('queue-operate-menu');
    const purge = menu.getByRole('menuitem', { name: 'Purge…' });
    await purge.waitFor();
    expect(await purge.isDisabled()).toBe(true);
    const note = menu.getByTestId('capability-note');
    expect(await note.getAttribute('data-value')).toBe('UNAVAILABLE');
    expect(await note.innerText()).toContain(
      'Writes unavailable on this cluster: the broker refused a write for role viewer',
    );
    expect(await note.getByTestId('config-snippet').innerText()).toBe('<permission type="manage" roles="amq"/>');
    await saveScreenshot(page, 'queue-operate-unavailable');
    await page.keyboard.press('Escape');

    // A link to the operation says why instead of opening it; Create queue is disabled too.
    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}?operate=purge`));
    const notOffered = page.getByTestId('operation-not-offered');
    await notOffered.waitFor();
    expect(await notOffered.innerText()).toContain('the broker refused a write for role viewer');
    await page.goto(url(`/clusters/${clusterId}/queues`));
    const create = page.getByRole('button', { name: 'Create queue' });
    // The button stays enabled until the cluster's ledger has answered; a second's polling is too short on two cores.
    await expect.poll(() => create.isDisabled(), { timeout: 15_000 }).toBe(true);
    // The grid's row menu lists its writes disabled under the reason; reading and copying stay offered.
    await page.getByRole('button', { name: `Actions for ${QUEUE}`, exact: true }).click();
    const purgeItem = page.getByRole('menuitem', { name: 'Purge…' });
    await purgeItem.waitFor();
    expect(await purgeItem.isDisabled()).toBe(true);
    expect(await page.getByTestId('row-menu-writes-off').first().innerText()).toContain(
      'the broker refused a write for role viewer',
    );
    expect(await page.getByRole('menuitem', { name: 'Copy name' }).isDisabled()).toBe(false);
    await page.keyboard.press('Escape');
    expect(await messageCount(node, QUEUE)).toBe(2);
  });
});
