// The request-reply screens in a real Chromium against Flotilla started as `npm start` does (its worker runs the rr
// correlator) and a real broker, fed by real AMQP traffic: an expectation is declared through the flows screen's form
// (a refused field first, then a dry run, then saved), and the address shows as sampled with its notice; the SQL
// module then captures the request and reply addresses (every message seen), a responder answers a requester over
// the shared reply queue and drops every second request, and the flow screen shows the completed and the dropped
// ones, draws its charts and lists the dropped correlations with their headers and a way to their messages; the
// expectation is changed and removed (each a dry run first) and its history keeps every version.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import {
  pressAndHold,
  saveScreenshot,
  signInOverApi,
  openSharedConsole,
  pickClusterFrom,
  tableLoaded,
  type ApiSession,
  type SharedConsole,
} from '@test/browser.ts';
import { leaveSharedConsole, putSettingOverApi, registerSingleNodeCluster } from '@test/browser-cluster.ts';
import { brokerMbean, jolokiaExec } from '@test/jolokia.ts';
import { createAnycastQueue, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { rrBrokerOf, runRequester, startResponder, type RequesterRun } from '@test/rr-clients.ts';
import { listDiverts, ManagementClient } from '@/modules/platform/broker/index.ts';

const broker = leaseSingleNode();
// This attempt's own queues: a retry finds no message or divert of the attempt before on them.
const REQUESTS = broker.name(uniqueName('rr.requests'));
const REPLIES = broker.name(uniqueName('rr.replies'));
const COUNT = 5;
let session: SharedConsole | undefined;
let node: BrokerNode;
let app: SharedConsole['app'];
let page: Page;
let api: ApiSession;
let clusterId: string;
let run: RequesterRun;
let dropped: string[] = [];
const pageErrors: string[] = [];

const url = (path: string) => `${app.baseUrl}${path}`;
const form = () => page.getByTestId('expectation-form');
const stat = (key: string) => page.getByTestId(`stat-${key}`).getByTestId('stat-value');

async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(url(`/api/v1${path}`), {
    method,
    headers: { 'Content-Type': 'application/json', ...api.headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

interface Subscription {
  readonly id: string;
  readonly address: string;
  readonly state: string;
  readonly lastError: string | null;
}
const subscriptions = () =>
  rest<{ items: Subscription[] }>('GET', `/clusters/${clusterId}/sql/subscriptions`).then((answer) => answer.items);

/** The diverts on the node whose source is one of this suite's addresses: the capture taps. */
async function ourDiverts() {
  const client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password });
  try {
    return (await listDiverts(client)).filter((divert) => divert.address === REQUESTS || divert.address === REPLIES);
  } finally {
    client.close();
  }
}

/** The request and reply addresses captured by the SQL module, as an operator adds them; waits for both taps. */
async function captureBoth(): Promise<void> {
  // A retry finds the first attempt's subscriptions (the app and its database live for the whole file).
  const subscribed = new Set((await subscriptions()).map((item) => item.address));
  for (const address of [REQUESTS, REPLIES].filter((name) => !subscribed.has(name)))
    await rest('POST', `/clusters/${clusterId}/sql/subscriptions`, { address, mode: 'CAPTURE' });
  await waitFor(
    'both capture taps ACTIVE',
    async () => {
      const items = await subscriptions();
      const failed = items.find((item) => item.state === 'FAILED');
      if (failed) throw new Error(`the capture of ${failed.address} failed: ${failed.lastError ?? ''}`);
      return items.filter((item) => item.state === 'ACTIVE').length === 2 ? true : undefined;
    },
    60_000,
  );
}

/**
 * The taps' diverts and queues are named outside the lease's prefix: the suite removes its subscriptions and waits for
 * the reconciler to take them off the broker, and destroys whatever is left by hand.
 */
async function removeCaptures(): Promise<void> {
  for (const item of await subscriptions()) await rest('DELETE', `/clusters/${clusterId}/sql/subscriptions/${item.id}`);
  try {
    await waitFor(
      'the capture taps removed',
      async () => ((await ourDiverts()).length === 0 ? true : undefined),
      30_000,
    );
  } finally {
    for (const divert of await ourDiverts()) {
      const mbean = brokerMbean(node.name);
      await jolokiaExec(node, mbean, 'destroyDivert(java.lang.String)', [divert.name]).catch(() => undefined);
      await jolokiaExec(node, mbean, 'destroyQueue(java.lang.String)', [divert.forwardingAddress]).catch(
        () => undefined,
      );
    }
  }
}

interface FlowAnswer {
  readonly summary: { readonly requests: number; readonly states: Record<string, number> };
}

beforeAll(async () => {
  session = await openSharedConsole();
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  node = broker.nodes[0] as BrokerNode;
  api = await signInOverApi(app.baseUrl);
  // The capture reconciler installs (and removes) a tap within a second instead of fifteen.
  await putSettingOverApi(app.baseUrl, api, 'sql.capture.reconcile-interval', '1s');
  await createAnycastQueue(node, REQUESTS);
  await createAnycastQueue(node, REPLIES);
  clusterId = await registerSingleNodeCluster(app.baseUrl, api, node, 'rr-cluster');
}, 240_000);

afterAll(async () => {
  if (clusterId) await removeCaptures().catch((error: unknown) => console.error(`[rr test] cleanup: ${String(error)}`));
  await leaveSharedConsole(session, { clusterId, settings: ['sql.capture.reconcile-interval'] });
  await broker.stop();
});

describe('request-reply screens on a real broker and real traffic', () => {
  it('declares an expectation through the form: a refused field, a dry run, then saved; the address is sampled', async () => {
    await pickClusterFrom(page, url('/rr'), 'rr-cluster', url(`/clusters/${clusterId}/rr`));
    await tableLoaded(page);
    await page
      .getByTestId('data-age')
      .filter({ hasText: /^Read / })
      .waitFor();

    await form().getByLabel('Request address').fill(REQUESTS);
    await form().getByLabel('Reply address').fill(REPLIES);
    await form().getByLabel('Expected latency (ms)').fill('200');
    await form().getByLabel('Deadline (ms)').fill('150');
    await form().getByRole('button', { name: 'Preview (dry run)' }).click();
    // The server refuses the deadline (below the expected latency): said under its field, nothing stored.
    const deadline = form().getByLabel('Deadline (ms)');
    await expect.poll(() => deadline.getAttribute('aria-invalid')).toBe('true');
    expect(await form().innerText()).toContain('must be at least the expected latency');
    expect(await form().getByRole('button', { name: 'Declare expectation' }).count()).toBe(0);

    await deadline.fill('1000');
    await form().getByRole('button', { name: 'Preview (dry run)' }).click();
    const preview = form().getByTestId('expectation-preview');
    await preview.waitFor();
    // The dry run names the next version and stores nothing (a retry finds the first attempt's version stored).
    const stored = await rest<{ items: Array<{ version: number }> }>('GET', `/clusters/${clusterId}/rr/expectations`);
    const next = (stored.items[0]?.version ?? 0) + 1;
    expect(await preview.innerText()).toMatch(
      new RegExp(`^Dry run: nothing changed\\. Saving would store version ${String(next)} `),
    );
    await form().getByRole('button', { name: 'Declare expectation' }).click();
    await form().getByTestId('expectation-saved').waitFor();
    expect(await form().getByTestId('expectation-saved').innerText()).toMatch(
      new RegExp(`^Stored version ${String(next)} for ${REQUESTS.replace(/\./g, '\\.')}`),
    );

    // The address is listed at once (its expectation), sampled: the notice says what sampling cannot see.
    const row = page.locator(`[data-testid="table-rr-flows"] tbody tr[data-address="${REQUESTS}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-feed')).toBe('sample');
    expect((await row.getByTestId('feed-mode').innerText()).toLowerCase()).toBe('sampled');
    const notice = page.getByTestId('feed-notice');
    expect(await notice.getAttribute('data-addresses')).toContain(REQUESTS);
    expect(await notice.innerText()).toMatch(/browsed every 1 s/);
    // Not dismissable: no close button on it.
    expect(await notice.getByRole('button').count()).toBe(0);
    await saveScreenshot(page, 'rr-flows-sampled');
  });

  it('traces real traffic over the shared reply queue: completed and dropped requests on the flow screen', async () => {
    await captureBoth();
    // The flows screen reads the feed as captured once the taps are ACTIVE.
    await waitFor(
      'the request address read as captured',
      async () => {
        const flows = await rest<{ items: Array<{ address: string; feed: { mode: string } }> }>(
          'GET',
          `/clusters/${clusterId}/rr/flows`,
        );
        return flows.items.find((item) => item.address === REQUESTS)?.feed.mode === 'capture' ? true : undefined;
      },
      20_000,
    );
    await page.goto(url(`/clusters/${clusterId}/rr`));
    const row = page.locator(`[data-testid="table-rr-flows"] tbody tr[data-address="${REQUESTS}"]`);
    expect(await row.getAttribute('data-feed')).toBe('capture');
    expect(await page.getByTestId('feed-notice').count()).toBe(0);
    // Row → its flow screen, open before the traffic: what follows comes on the stream, without a reload.
    await row.getByTestId('flow-link').click();
    await page.waitForURL((at) => at.pathname.endsWith('/rr/flow') && at.searchParams.get('address') === REQUESTS);
    await page.getByTestId('flow-summary').waitFor();
    await page.locator('[data-testid="stream-state"][data-state="connected"]').waitFor({ timeout: 30_000 });

    // Once: a retry reads the first attempt's traffic again (one more run would double every count).
    if (dropped.length === 0) {
      // The correlator reads the captured addresses again every two seconds: the traffic starts after that.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const responder = await startResponder(rrBrokerOf(node), { requestAddress: REQUESTS, dropEvery: 2 });
      try {
        run = await runRequester(rrBrokerOf(node), {
          requestAddress: REQUESTS,
          replyAddress: REPLIES,
          count: COUNT,
          timeoutMs: 1_500,
          correlation: 'correlation-id',
        });
      } finally {
        await responder.stop();
      }
      dropped = [...responder.dropped];
    }
    // What the clients themselves saw: every second request went unanswered.
    expect(dropped).toHaveLength(2);
    expect(run.pairs.filter((pair) => pair.latencyMs === null).map((pair) => pair.key)).toEqual(dropped);

    // The correlator settles the dropped ones at their deadline (1 s); the open screen follows the stream. When it
    // does not, the failure says what the correlator stored (over REST) and its log.
    try {
      await expect.poll(() => stat('COMPLETED').innerText(), { timeout: 30_000 }).toBe(String(COUNT - dropped.length));
      await expect.poll(() => stat('RESPONDER_DROPPED').innerText(), { timeout: 30_000 }).toBe(String(dropped.length));
    } catch (error) {
      const flow = await rest<FlowAnswer>(
        'GET',
        `/clusters/${clusterId}/rr/flow?address=${encodeURIComponent(REQUESTS)}`,
      );
      const correlations = await rest(
        'GET',
        `/clusters/${clusterId}/rr/correlations?address=${encodeURIComponent(REQUESTS)}`,
      );
      const log = app
        .logLines()
        .filter((line) => line.module === 'rr')
        .slice(-20)
        .map((line) => JSON.stringify(line));
      const shown = await page.getByTestId('flow-summary').innerText();
      throw new Error(
        `${String(error)}\nscreen: ${shown}\nflow: ${JSON.stringify(flow.summary)}\ncorrelations: ${JSON.stringify(correlations)}\nrr log: ${log.join('\n')}`,
        { cause: error },
      );
    }
    expect(await stat('requests').innerText()).toBe(String(COUNT));
    expect(await stat('TIMED_OUT').innerText()).toBe('0');
    expect(await stat('p50').innerText()).toMatch(/^\d[\d,]* ms$/);
    expect((await page.getByTestId('feed-mode').first().innerText()).toLowerCase()).toBe('captured');
    expect(await page.getByTestId('feed-notice').count()).toBe(0);
    expect(await page.getByTestId('expectation-values').innerText()).toContain(`replies to ${REPLIES}`);
    expect(await page.getByTestId('data-age').first().innerText()).toMatch(/^Read /);

    // Both charts are drawn on canvas (ECharts), over the window's buckets.
    for (const title of ['Reply latency', 'Requests and replies']) {
      const chart = page.getByTestId(`chart-${title}`);
      await chart.locator('canvas').first().waitFor();
      expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(0);
      const box = await chart.locator('canvas').first().boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(100);
    }

    // The correlations that did not complete: the two dropped requests, by their correlation ids.
    const rows = page.locator('[data-testid="table-rr-correlations"] tbody tr[data-row-key]');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(dropped.length);
    expect(new Set(await rows.evaluateAll((all) => all.map((tr) => tr.getAttribute('data-state'))))).toEqual(
      new Set(['RESPONDER_DROPPED']),
    );
    const ids = await page.getByTestId('correlation-id').allInnerTexts();
    expect([...ids].sort()).toEqual([...dropped].sort());
    // Each links to the request address's messages (the messages module's browse screen).
    const browse = rows.first().getByTestId('browse-messages');
    expect(await browse.getAttribute('href')).toBe(
      `/clusters/${clusterId}/queues/${encodeURIComponent(REQUESTS)}/messages`,
    );
    // The request's headers, as the content policy left them, one click away.
    const toggle = rows.first().getByRole('button', { name: /headers?$/ });
    if (await toggle.count()) {
      await toggle.click();
      await rows.first().getByTestId('correlation-headers').waitFor();
    }
    await saveScreenshot(page, 'rr-flow');

    // The state filter is kept in the URL; COMPLETED lists the answered ones.
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'COMPLETED', exact: true }).click();
    await page.waitForURL((at) => at.searchParams.get('c.state') === 'COMPLETED');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(COUNT - dropped.length);
  });

  it('changes and removes the expectation, each a dry run first, and lists every version', async () => {
    const section = page.getByRole('region', { name: 'Expectation' });
    await section.getByRole('button', { name: 'Edit…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Deadline (ms)').fill('2000');
    await dialog.getByRole('button', { name: 'Preview (dry run)' }).click();
    await dialog.getByTestId('expectation-preview').waitFor();
    await dialog.getByRole('button', { name: 'Save version 2' }).click();
    await dialog.getByTestId('expectation-saved').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('expectation-version').innerText()).toMatch(/^Version 2, by /);
    expect(await page.getByTestId('expectation-values').innerText()).toContain('deadline 2,000 ms');

    await section.getByRole('button', { name: 'Remove…' }).click();
    const removal = page.getByTestId('remove-expectation');
    await removal.getByTestId('expectation-preview').waitFor();
    expect(await removal.getByTestId('expectation-preview').innerText()).toMatch(/^Dry run: nothing changed\./);
    await pressAndHold(
      removal.getByRole('button', { name: 'Hold to remove 1 expectation' }),
      removal.getByTestId('expectation-removed'),
    );
    await removal.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('expectation-values').innerText()).toMatch(/^None declared/);

    await section.getByRole('button', { name: 'History' }).click();
    const history = page.locator('[data-testid="table-rr-expectation-history"] tbody tr[data-row-key]');
    await expect.poll(() => history.allInnerTexts().then((texts) => texts.length)).toBe(3);
    const versions = await history.evaluateAll((all) => all.map((tr) => tr.getAttribute('data-row-key')));
    expect(versions).toEqual(['3', '2', '1']);
    expect((await history.first().innerText()).toLowerCase()).toContain('removed');
  });

  it('threw nothing in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
