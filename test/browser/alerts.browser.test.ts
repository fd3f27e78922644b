// Alerting's screens in a real Chromium against Flotilla started as `npm start` does, with a real broker: a rule
// written in the editor shows, before it is saved, the queue it would fire on now (the API's dry run), and once
// saved the worker fires it after a scrape tier; a webhook channel created on the Channels screen and pointed at a
// local HTTP listener gets a signed test notification, and the screen shows the status line of its answer (never its body); the firing alert
// is acknowledged, silenced and unsilenced from its row (each previewed first), and the fleet home's cluster card
// counts it.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import {
  saveScreenshot,
  signInOverApi,
  startSignedInConsole,
  tableLoaded,
  type ApiSession,
  type SignedInConsole,
  pressAndHold,
} from '@test/browser.ts';
import { registerSingleNodeCluster } from '@test/browser-cluster.ts';
import { httpClient, okBody } from '@test/rest-call.ts';
import { createAnycastQueue, sendDurableMessages, waitFor } from '@test/native-test-helpers.ts';

const CLUSTER = 'alerts-cluster';
// A pooled broker: the suite's queue and its rule's pattern are under the lease's prefix.
const broker = leaseSingleNode();
const QUEUE = broker.name('alerts.orders');
const PATTERN = broker.name('alerts.*');
const RULE = 'Orders piling up';
const CHANNEL = 'local-hook';
const pool = new AppPool();
let session: SignedInConsole | undefined;
let node: BrokerNode;
let app: AppProcess;
let page: Page;
let api: ApiSession;
let clusterId: string;
let listener: Server;
let listenerUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const pageErrors: string[] = [];

const url = (path: string) => `${app.baseUrl}${path}`;
const get = (path: string) => fetch(url(`/api/v1${path}`), { headers: api.headers });

/** The test's own change over the API, answered 200, and its parsed answer. */
const call = <T>(method: string, path: string, body?: unknown) =>
  okBody<T>(httpClient(url('/api/v1'), api.headers), method, path, body);

interface RuleView {
  id: string;
  name: string;
  condition: { kind: string; params: Record<string, unknown> };
  clusterId: string | null;
  environmentId: string | null;
  pattern: string | null;
  severity: string;
  forSeconds: number;
  labels: Record<string, string>;
  channelIds: string[];
  enabled: boolean;
}

const rulesNamed = async (name: string) =>
  (await call<{ items: RuleView[] }>('GET', `/alerts/rules?q=${encodeURIComponent(name)}`)).items.filter(
    (rule) => rule.name === name,
  );
const channelsNamed = async (name: string) =>
  (await call<{ items: { id: string; name: string }[] }>('GET', '/alerts/channels')).items.filter(
    (channel) => channel.name === name,
  );

interface FiringAlert {
  id: string;
  subject: string;
  acknowledgedBy: string | null;
  silencedUntil: string | null;
}

const firingAlert = async () =>
  (await call<{ items: FiringAlert[] }>('GET', `/alerts?view=firing&clusterId=${clusterId}`)).items.find(
    (item) => item.subject === QUEUE,
  );

async function pick(field: Locator, option: string): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

beforeAll(async () => {
  listener = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(202, { 'content-type': 'text/plain' }).end('heard');
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hooks/flotilla`;

  session = await startSignedInConsole(pool);
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  node = broker.nodes[0] as BrokerNode;
  api = await signInOverApi(app.baseUrl);
  // The listener is on loopback, which channels reach only when listed, as an operator would list it.
  await allowChannelNetworks(call, '127.0.0.1');
  clusterId = await registerSingleNodeCluster(app.baseUrl, api, node, CLUSTER);
  await createAnycastQueue(node, QUEUE);
  await sendDurableMessages(node, QUEUE, 3);
  await waitFor(
    'the queue scraped with its three messages',
    async () => {
      const response = await get(`/clusters/${clusterId}/queues/${QUEUE}`);
      if (response.status !== 200) {
        await response.body?.cancel();
        return undefined;
      }
      const queue = (await response.json()) as { messageCount: number };
      return queue.messageCount >= 3 ? true : undefined;
    },
    90_000,
  );
}, 240_000);

afterAll(async () => {
  await session?.close();
  await broker.stop();
  await new Promise((resolve) => listener.close(resolve));
});

describe('alerting screens', () => {
  it('write a rule in the editor, preview what it would fire on now, and save it', async () => {
    // A retry finds the rule its first attempt saved; the name is taken and the list below holds one rule.
    for (const rule of await rulesNamed(RULE)) await call('DELETE', `/alerts/rules/${rule.id}`);
    await page.goto(url('/alerts/rules/new'));
    const preview = page.getByTestId('rule-preview');
    await preview.getByText(/Fill in Name, Condition/).waitFor();
    await page.getByRole('textbox', { name: /^Name/ }).fill(RULE);
    await pick(page.getByRole('combobox', { name: /^Condition/ }), 'queue-threshold');
    await pick(page.getByRole('combobox', { name: /^Metric/ }), 'depth');
    await page.getByRole('textbox', { name: /^Threshold/ }).fill('0');
    await page.getByRole('textbox', { name: /^Queue pattern/ }).fill(PATTERN);

    const hit = preview.locator(`[data-testid="would-fire"][data-subject="${QUEUE}"]`);
    await hit.waitFor({ timeout: 20_000 });
    expect(await hit.textContent()).toContain(CLUSTER);
    expect(await preview.getByTestId('preview-count').getAttribute('data-count')).toBe('1');

    // A threshold nothing reaches: the preview follows the draft.
    await page.getByRole('textbox', { name: /^Threshold/ }).fill('1000');
    await preview.getByText(/Nothing: the condition holds nowhere/).waitFor({ timeout: 20_000 });
    await page.getByRole('textbox', { name: /^Threshold/ }).fill('0');
    await hit.waitFor({ timeout: 20_000 });
    await saveScreenshot(page, 'alerts-rule-editor');

    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.waitForURL(url('/alerts/rules'));
    await page.locator(`tr[data-rule="${RULE}"]`).waitFor();
    const rules = (await (await get('/alerts/rules?q=Orders')).json()) as {
      items: { condition: { kind: string; params: Record<string, unknown> }; pattern: string }[];
    };
    expect(rules.items).toEqual([
      expect.objectContaining({
        pattern: PATTERN,
        condition: {
          kind: 'queue-threshold',
          params: expect.objectContaining({ metric: 'depth', threshold: 0 }) as unknown,
        },
      }),
    ]);
  });

  it('create a webhook channel and send it a test: the listener hears a signed test, the screen its answer', async () => {
    // A retry finds the channel its first attempt created, and what the listener heard from it.
    for (const channel of await channelsNamed(CHANNEL)) await call('DELETE', `/alerts/channels/${channel.id}`);
    received.length = 0;
    await page.goto(url('/alerts/channels'));
    await tableLoaded(page);
    await page.getByRole('button', { name: 'New channel' }).click();
    const dialog = page.getByTestId('channel-dialog');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill(CHANNEL);
    // Kinds come from the API's channel schema: the email kind's form is drawn from it too.
    await dialog.getByText('email', { exact: true }).click();
    for (const field of [/^Host/, /^Port/, /^From/, /^To/])
      await dialog.getByRole('textbox', { name: field }).waitFor();
    await dialog.getByLabel(/^Password/).waitFor();
    expect(await dialog.getByRole('textbox', { name: /^Port/ }).inputValue()).toBe('587');
    expect(await dialog.getByRole('combobox', { name: /^TLS/ }).inputValue()).toBe('starttls');
    await dialog.getByText('webhook', { exact: true }).click();
    await dialog.getByRole('textbox', { name: /^Host/ }).waitFor({ state: 'detached' });
    await dialog.getByRole('textbox', { name: /^URL/ }).fill(listenerUrl);
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByTestId('channel-preview').getByText('would send to http://127.0.0.1').waitFor();
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await dialog.getByTestId('channel-saved').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const row = page.locator(`tr[data-channel="${CHANNEL}"]`);
    await row.waitFor();
    expect(received).toHaveLength(0);
    await row.getByRole('button', { name: 'Send test' }).click();
    const outcome = row.getByTestId('test-outcome');
    await outcome.waitFor();
    expect(await outcome.getAttribute('data-delivered')).toBe('true');
    expect(await outcome.textContent()).toContain('202 Accepted');
    expect(await outcome.textContent()).not.toContain('heard');
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['x-flotilla-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(JSON.parse(received[0]?.body ?? '{}')).toMatchObject({ event: 'test', alert: { subject: CHANNEL } });
    // The row says how its last delivery went.
    await row.locator('[data-testid="last-delivery"][data-status="delivered"]').waitFor();
    expect(await row.getByTestId('last-delivery').textContent()).toContain('202 Accepted');
    await saveScreenshot(page, 'alerts-channels');
  });

  it('acknowledge and silence the firing alert from its row, each previewed first', async () => {
    await replaceAnAlertActedOnByAnEarlierAttempt();
    await page.goto(url('/alerts'));
    const row = page.locator(`tr[data-subject="${QUEUE}"][data-state="firing"]`);
    await row.waitFor({ timeout: 90_000 });
    await page
      .getByTestId('data-age')
      .getByText(/^Read /)
      .waitFor();

    await row.getByRole('button', { name: 'Acknowledge' }).click();
    const acknowledge = page.getByTestId('acknowledge-dialog');
    await acknowledge.getByRole('button', { name: 'Preview' }).click();
    await acknowledge
      .getByTestId('action-preview')
      .getByText(/it would be acknowledged by you now/)
      .waitFor();
    await acknowledge.getByRole('button', { name: 'Acknowledge' }).click();
    await acknowledge.getByTestId('action-done').waitFor();
    await acknowledge.getByRole('button', { name: 'Close' }).click();
    await row.getByTestId('acknowledged').waitFor();
    expect(await row.getByRole('button', { name: 'Acknowledge' }).isDisabled()).toBe(true);

    await row.getByRole('button', { name: 'Silence' }).click();
    const silence = page.getByTestId('silence-dialog');
    expect(await silence.getByRole('button', { name: 'Preview' }).isDisabled()).toBe(true);
    // A segmented control's radios are hidden under their labels: the label is what a person presses.
    await silence.getByText('4 hours', { exact: true }).click();
    await silence.getByRole('textbox', { name: /^Reason/ }).fill('orders replay tonight');
    await silence.getByRole('button', { name: 'Preview' }).click();
    await silence
      .getByTestId('action-preview')
      .getByText(/orders replay tonight/)
      .waitFor();
    await silence.getByRole('button', { name: 'Silence' }).click();
    await silence.getByTestId('action-done').waitFor();
    await silence.getByRole('button', { name: 'Close' }).click();
    await row
      .getByTestId('silenced')
      .getByText(/orders replay tonight/)
      .waitFor();

    const alerts = (await (await get(`/alerts?view=firing&clusterId=${clusterId}`)).json()) as {
      items: { subject: string; acknowledgedBy: string | null; silencedUntil: string | null; silenceReason: string }[];
    };
    const alert = alerts.items.find((item) => item.subject === QUEUE);
    expect(alert?.acknowledgedBy).toBeTruthy();
    expect(alert?.silenceReason).toBe('orders replay tonight');
    const hours = (new Date(alert?.silencedUntil ?? 0).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(3.9);
    expect(hours).toBeLessThanOrEqual(4);
    await saveScreenshot(page, 'alerts-firing');
  });

  it('unsilence it again, previewed first', async () => {
    // A retry finds the alert its first attempt unsilenced, and perhaps a dialog open: silenced again, a fresh page.
    const firing = await firingAlert();
    if (firing && !firing.silencedUntil)
      await call('POST', `/alerts/${firing.id}/silence`, {
        until: new Date(Date.now() + 4 * 3_600_000).toISOString(),
        reason: 'orders replay tonight',
      });
    await page.goto(url('/alerts'));
    const row = page.locator(`tr[data-subject="${QUEUE}"][data-state="firing"]`);
    await row.getByRole('button', { name: 'Unsilence' }).click();
    const dialog = page.getByTestId('unsilence-dialog');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog
      .getByTestId('action-preview')
      .getByText(/would end now/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Unsilence' }).click();
    await dialog.getByTestId('action-done').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await row.getByTestId('silenced').waitFor({ state: 'detached' });
    await row.getByTestId('acknowledged').waitFor();
    const alerts = (await (await get(`/alerts?view=firing&clusterId=${clusterId}`)).json()) as {
      items: { subject: string; silencedUntil: string | null }[];
    };
    expect(alerts.items.find((item) => item.subject === QUEUE)?.silencedUntil).toBeNull();
  });

  it('count the firing alert on the fleet home’s cluster card', async () => {
    await page.goto(url('/'));
    const badge = page.locator(`[data-testid="fleet-cluster"][data-cluster="${CLUSTER}"] [data-testid="fleet-firing"]`);
    await badge.waitFor({ timeout: 30_000 });
    expect(await badge.textContent()).toBe('1 firing');
    await badge.click();
    await page.waitForURL(url(`/alerts?cluster=${clusterId}`));
    await page.locator(`tr[data-subject="${QUEUE}"]`).waitFor();
  });

  it('delete the channel by holding the button', async () => {
    // A retry finds the channel its first attempt deleted: made again as that attempt found it.
    if ((await channelsNamed(CHANNEL)).length === 0)
      await call('POST', '/alerts/channels', { name: CHANNEL, config: { kind: 'webhook', url: listenerUrl } });
    await page.goto(url('/alerts/channels'));
    const row = page.locator(`tr[data-channel="${CHANNEL}"]`);
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByTestId('delete-channel');
    await pressAndHold(dialog.getByRole('button', { name: /Hold to delete 1 channel/ }), row, 'detached');
    expect(((await (await get('/alerts/channels')).json()) as { total: number }).total).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

/**
 * A retry finds the alert its first attempt acknowledged (which nothing undoes) or silenced. The rule is made again,
 * as it was: deleting a rule deletes its alerts, and the new rule fires a fresh one on the next evaluation.
 */
async function replaceAnAlertActedOnByAnEarlierAttempt(): Promise<void> {
  const firing = await firingAlert();
  if (!firing || (!firing.acknowledgedBy && !firing.silencedUntil)) return;
  for (const rule of await rulesNamed(RULE)) {
    await call('DELETE', `/alerts/rules/${rule.id}`);
    await call('POST', '/alerts/rules', {
      name: rule.name,
      condition: rule.condition,
      clusterId: rule.clusterId,
      environmentId: rule.environmentId,
      pattern: rule.pattern,
      severity: rule.severity,
      forSeconds: rule.forSeconds,
      labels: rule.labels,
      channelIds: rule.channelIds,
      enabled: rule.enabled,
    });
  }
}
