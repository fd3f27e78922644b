// Broker events in a real Chromium against Flotilla started as `npm start` does, with a real broker: a cluster
// registered over the API, then a consumer attaching to a queue shows up on the Events screen without a reload
// (the live tail follows the stream); Pause holds the rows still and is kept in the URL with the filters; a row's
// drawer shows every property and is kept in the URL; the queue page shows its recent events; a burst of
// notifications refetches the tail at most once a second and still ends on the burst's last event.
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
} from '@test/browser.ts';
import { leaveSharedConsole, registerSingleNodeCluster, waitForQueueScraped } from '@test/browser-cluster.ts';
import {
  attachAndLeave as attachAndLeaveOn,
  createAnycastQueue,
  openConsumers,
  uniqueName,
} from '@test/native-test-helpers.ts';

let session: SharedConsole | undefined;
const broker = leaseSingleNode();
let node: BrokerNode;
let app: SharedConsole['app'];
let page: Page;
let api: ApiSession;
let clusterId: string;

const url = (path: string) => `${app.baseUrl}${path}`;
const attachAndLeave = (queue: string) => attachAndLeaveOn(node, queue);

beforeAll(async () => {
  session = await openSharedConsole();
  ({ app, page } = session);
  node = broker.nodes[0] as BrokerNode;
  api = await signInOverApi(app.baseUrl);
  clusterId = await registerSingleNodeCluster(app.baseUrl, api, node, 'events-cluster', { untilSubscribed: true });
}, 240_000);

afterAll(async () => {
  await leaveSharedConsole(session, { clusterId });
  await broker.stop();
});

describe('events console', () => {
  it('follows the stream as a live tail, pauses, filters in the URL and shows every property', async () => {
    // A queue of this attempt's own: a retry would count its first attempt's events too (and the queue exists).
    const queue = broker.name(uniqueName('orders.live'));
    await createAnycastQueue(node, queue);
    await page.goto(url(`/clusters/${clusterId}/events?kind=CONSUMER_CREATED,CONSUMER_CLOSED`));
    await tableLoaded(page);
    await page.locator('[data-testid="stream-state"][data-state="connected"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('tail-state').textContent()).toBe('live tail');

    await attachAndLeave(queue);
    const rows = page.getByTestId('table-events').locator('tbody tr');
    // No reload: the events arrive on the stream and the table follows.
    await rows.filter({ hasText: queue }).filter({ hasText: 'CONSUMER_CLOSED' }).waitFor({ timeout: 20_000 });
    expect(await rows.filter({ hasText: queue }).count()).toBe(2);
    await saveScreenshot(page, 'events');

    // Pause: new events do not move the rows; the pause is in the URL beside the filters.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL(/paused=true/);
    expect(page.url()).toContain('kind=CONSUMER_CREATED%2CCONSUMER_CLOSED');
    await attachAndLeave(queue);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await rows.filter({ hasText: queue }).count()).toBe(2);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => rows.filter({ hasText: queue }).count(), { timeout: 20_000 }).toBe(4);

    // Every property of one event, with its AMQP type.
    await rows
      .first()
      .getByRole('button', { name: /^Details of event/ })
      .click();
    const details = page.getByTestId('event-details');
    await details.waitFor();
    expect(await details.innerText()).toContain(node.name);
    expect(await page.getByTestId('event-properties').innerText()).toMatch(/_AMQ_ConsumerCount\s+\d+\s+int/);
    // The opened event is in the URL: the link opens its drawer on a fresh page (read on its own if the tail moved).
    const seq = new URL(page.url()).searchParams.get('open') ?? '';
    expect(seq).toMatch(/^\d+$/);
    await page.goto(url(`/clusters/${clusterId}/events?paused=true&open=${seq}`));
    await details.waitFor();
    expect(await details.innerText()).toContain(node.name);
    await page.keyboard.press('Escape');
    await page.waitForURL((current) => !current.searchParams.has('open'));
  });

  it('shows a queue’s recent events on its page', async () => {
    // A queue of this attempt's own: a retry would count its first attempt's consumer too (and the queue exists).
    const queue = broker.name(uniqueName('orders.panel'));
    await createAnycastQueue(node, queue);
    await attachAndLeave(queue);
    await waitForQueueScraped(app.baseUrl, api, clusterId, queue);
    await page.goto(url(`/clusters/${clusterId}/queues/${queue}`));
    const panel = page.getByTestId('queue-recent-events');
    await panel.locator('tbody tr[data-kind="CONSUMER_CLOSED"]').waitFor({ timeout: 20_000 });
    expect(await panel.locator('tbody tr[data-kind="CONSUMER_CREATED"]').count()).toBe(1);
  });

  it('refetches the live tail at most once a second during a burst of notifications, ending on the last one', async () => {
    const queue = broker.name(uniqueName('orders.burst'));
    await createAnycastQueue(node, queue);
    await page.goto(url(`/clusters/${clusterId}/events?kind=CONSUMER_CLOSED&queue=${queue}&pageSize=50`));
    await tableLoaded(page);
    await page.locator('[data-testid="stream-state"][data-state="connected"]').waitFor({ timeout: 30_000 });
    let refetches = 0;
    const countRefetch = (request: { url(): string }) => {
      if (request.url().includes('events.list')) refetches++;
    };
    page.on('request', countRefetch);
    const started = Date.now();
    // 30 consumers attach and leave at once: 60 consumer notifications and their sessions' within a second or two,
    // each one a message on the events topic.
    const consumers = openConsumers(node, queue, 30);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await consumers.close();
    const rows = page.getByTestId('table-events').locator('tbody tr');
    await expect.poll(() => rows.filter({ hasText: queue }).count(), { timeout: 30_000 }).toBe(30);
    const seconds = (Date.now() - started) / 1_000;
    page.off('request', countRefetch);
    // One refetch at the first notification, then at most one at the end of each second after it.
    expect(refetches).toBeGreaterThan(0);
    expect(refetches).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  });
});
