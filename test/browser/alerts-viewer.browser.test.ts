// Alerting's screens in a real Chromium for a user holding the viewer role only, against Flotilla started as
// `npm start` does, with a real broker: an admin's depth rule fires on two queues and notifies a local HTTP
// listener through a signed webhook channel; one queue is purged (its alert resolves), the other alert is
// silenced by the admin. The viewer sees both lists, every control that changes something (Acknowledge, Silence,
// Unsilence, New rule, a rule's Save, the channels' buttons) off with the reason in a tooltip, and an alert's
// drawer with its delivery log (the listener's answer) and its transitions (the evaluator's and the admin's), kept in
// the URL so a link opens it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import { leaveSharedConsole } from '@test/browser-cluster.ts';
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
import { createAnycastQueue, sendDurableMessages, waitFor } from '@test/native-test-helpers.ts';
import { signIn } from '@test/sign-in.ts';

const CLUSTER = 'viewer-cluster';
// A pooled broker: every address of this suite is under the lease's prefix.
const broker = leaseSingleNode();
const QUEUE = broker.name('viewer.orders');
const GONE = broker.name('viewer.purged');
const RULE = 'Viewer orders';
const VIEWER = { username: 'vera', password: 'a long password for the viewer' };
const WRITE_REASON = /Needs the alert:write permission/;
let session: SharedConsole | undefined;
let node: BrokerNode;
let app: SharedConsole['app'];
let page: Page;
let api: ApiSession;
let clusterId: string;
let ruleId: string;
let channelId: string;
let listener: Server;
let heard = 0;
const pageErrors: string[] = [];

const url = (path: string) => `${app.baseUrl}${path}`;

async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url(`/api/v1${path}`), {
    method,
    headers: { 'Content-Type': 'application/json', ...api.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

interface AlertItem {
  id: string;
  subject: string;
  state: string;
}

async function alertOf(view: string, subject: string): Promise<AlertItem | undefined> {
  const answer = await call('GET', `/alerts?view=${view}&clusterId=${clusterId}&q=${subject}`);
  return (answer.items as AlertItem[]).find((item) => item.subject === subject);
}

/** A control the viewer may not use: disabled, and its wrapper's tooltip says why. */
async function expectGated(button: Locator): Promise<void> {
  await button.waitFor();
  expect(await button.isDisabled()).toBe(true);
  const gate = button.locator('xpath=ancestor::*[@data-testid="write-gated"][1]');
  const reason = page.getByRole('tooltip').filter({ hasText: WRITE_REASON });
  // Hover again until the reason shows: a form still rendering its last answer (two browser files share the cores)
  // can replace the control under a pointer that has already entered it, and the tooltip opens only on entering.
  await expect
    .poll(
      async () => {
        await page.mouse.move(0, 0);
        await gate.hover();
        return reason.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  await page.mouse.move(0, 0);
  await page.getByRole('tooltip').waitFor({ state: 'detached' });
}

beforeAll(async () => {
  listener = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      heard += 1;
      response.writeHead(202, { 'content-type': 'text/plain' }).end('heard');
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hooks/flotilla`;

  session = await openSharedConsole();
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  node = broker.nodes[0] as BrokerNode;
  api = await signInOverApi(app.baseUrl);
  // The listener is on loopback, which channels reach only when listed, as an operator would list it.
  await allowChannelNetworks(call, '127.0.0.1');
  const registered = await call('POST', '/clusters', {
    name: CLUSTER,
    environment: 'staging',
    nodes: [{ managementUrl: node.managementUrl, amqpUrl: node.amqpUrl }],
    credentials: { username: node.user, password: node.password },
  });
  clusterId = registered.clusterId as string;
  await createAnycastQueue(node, QUEUE);
  await createAnycastQueue(node, GONE);
  await sendDurableMessages(node, QUEUE, 3);
  await sendDurableMessages(node, GONE, 1);

  const channel = await call('POST', '/alerts/channels', {
    name: 'viewer-hook',
    config: { kind: 'webhook', url: listenerUrl, secret: 'a-secret-of-sixteen+' },
  });
  channelId = channel.id as string;
  const rule = await call('POST', '/alerts/rules', {
    name: RULE,
    condition: { kind: 'queue-threshold', params: { metric: 'depth', op: '>', threshold: 0 } },
    clusterId,
    pattern: broker.name('viewer.*'),
    severity: 'warning',
    forSeconds: 0,
    channelIds: [channelId],
  });
  ruleId = (rule.rule as { id: string }).id;

  const firing = await waitFor(
    'both queues firing, the firing notification of the orders queue delivered',
    async () => {
      const orders = await alertOf('firing', QUEUE);
      const gone = await alertOf('firing', GONE);
      if (!orders || !gone) return undefined;
      const log = await call('GET', `/alerts/${orders.id}/deliveries`);
      const delivered = (log.items as { status: string }[]).some((row) => row.status === 'delivered');
      return delivered ? orders : undefined;
    },
    120_000,
  );
  await call('POST', `/clusters/${clusterId}/queues/${encodeURIComponent(GONE)}/purge`, {});
  await waitFor('the purged queue’s alert resolved', () => alertOf('history', GONE), 120_000);
  await call('POST', `/alerts/${firing.id}/silence`, {
    until: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    reason: 'watching only',
  });

  // The viewer: a global grant of the viewer role, signed in in the same browser instead of the admin.
  const user = await call('POST', '/users', { ...VIEWER, mustChangePassword: false });
  const roles = await call('GET', '/roles?q=viewer');
  const viewerRole = (roles.items as { id: string; name: string }[]).find((role) => role.name === 'viewer');
  await call('POST', '/grants', {
    userId: (user.user as { id: string }).id,
    roleId: viewerRole?.id,
    scope: { kind: 'GLOBAL' },
  });
  const headers = await signIn((request) => fetch(request), app.baseUrl, VIEWER);
  await session.browser.context.clearCookies();
  await session.browser.context.addCookies(
    headers.cookie.split('; ').map((pair) => ({
      name: pair.slice(0, pair.indexOf('=')),
      value: pair.slice(pair.indexOf('=') + 1),
      url: app.baseUrl,
    })),
  );
}, 360_000);

afterAll(async () => {
  // The shared console (ADR 37) keeps nothing of this file's: its rule, channel, cluster and channel networks.
  if (ruleId) await call('DELETE', `/alerts/rules/${ruleId}`);
  if (channelId) await call('DELETE', `/alerts/channels/${channelId}`);
  await leaveSharedConsole(session, { clusterId, settings: ['alerting.allowed-networks'] });
  await broker.stop();
  await new Promise((resolve) => listener.close(resolve));
});

describe('alerting screens for a viewer', () => {
  it('show the firing alert with Acknowledge, Silence and Unsilence off, saying why, and the resolved one in History', async () => {
    await page.goto(url('/alerts'));
    await page.getByTestId('user-menu').filter({ hasText: VIEWER.username }).waitFor();
    const row = page.locator(`tr[data-subject="${QUEUE}"][data-state="firing"]`);
    await row.waitFor({ timeout: 30_000 });
    await row
      .getByTestId('silenced')
      .getByText(/watching only/)
      .waitFor();
    await expectGated(row.getByRole('button', { name: 'Acknowledge' }));
    await expectGated(row.getByRole('button', { name: 'Silence', exact: true }));
    await expectGated(row.getByRole('button', { name: 'Unsilence' }));
    await saveScreenshot(page, 'alerts-viewer-firing');

    await page.getByRole('tab', { name: 'History' }).click();
    await page.waitForURL(url('/alerts/history'));
    const resolved = page.locator(`tr[data-subject="${GONE}"][data-state="resolved"]`);
    await resolved.waitFor();
    expect(await resolved.getByRole('button', { name: /Acknowledge|Silence/ }).count()).toBe(0);
  });

  it('offer no rule or channel change: New rule, Save, New channel, Send test, Edit and Delete off, saying why', async () => {
    await page.goto(url('/alerts/rules'));
    await page.locator(`tr[data-rule="${RULE}"]`).waitFor();
    await expectGated(page.getByRole('button', { name: 'New rule' }));

    await page.goto(url(`/alerts/rules/${ruleId}`));
    await page
      .getByRole('textbox', { name: /^Name/ })
      .and(page.locator(`[value="${RULE}"]`))
      .waitFor();
    await expectGated(page.getByRole('button', { name: 'Save' }));
    expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(0);

    await page.goto(url('/alerts/channels'));
    await tableLoaded(page);
    const channel = page.locator('tr[data-channel="viewer-hook"]');
    await channel.waitFor();
    await expectGated(page.getByRole('button', { name: 'New channel' }));
    for (const name of ['Send test', 'Edit', 'Delete'])
      await expectGated(channel.getByRole('button', { name, exact: true }));
  });

  it('open the alert’s drawer: its facts, the delivery log with the listener’s answer, and its transitions', async () => {
    await page.goto(url('/alerts'));
    const row = page.locator(`tr[data-subject="${QUEUE}"][data-state="firing"]`);
    await row.getByRole('button', { name: `Open alert ${QUEUE}` }).click();
    const drawer = page.getByRole('dialog', { name: `${RULE}: ${QUEUE}` });
    await drawer.waitFor();
    const facts = drawer.getByTestId('alert-facts');
    expect(await facts.locator('[data-field="State"]').textContent()).toContain('firing');
    expect(await facts.locator('[data-field="Cluster"]').textContent()).toContain(CLUSTER);
    expect(await facts.locator('[data-field="Silenced"]').textContent()).toContain('watching only');
    expect(await facts.locator('[data-field="Value"]').textContent()).toContain('3');
    await expectGated(drawer.getByRole('button', { name: 'Acknowledge' }));

    const delivered = drawer
      .getByTestId('alert-deliveries')
      .locator('tr[data-event="firing"][data-status="delivered"]');
    // The channel's name comes from a second query: until it answers, the row names an id ("deleted channel …").
    await delivered.filter({ hasText: 'viewer-hook' }).waitFor();
    const deliveredText = await delivered.innerText();
    expect(deliveredText).toContain('viewer-hook');
    expect(deliveredText).toContain('202 Accepted');
    // Only the answer's status line is kept, never its body.
    expect(deliveredText).not.toContain('heard');

    const transitions = drawer.getByTestId('alert-transitions');
    await transitions.locator('tr[data-transition="firing"][data-actor="system"]').waitFor();
    await transitions.locator('tr[data-transition="silenced"][data-actor="admin"]').waitFor();
    expect(await transitions.locator('tbody tr[data-transition]').count()).toBe(2);
    await saveScreenshot(page, 'alerts-viewer-drawer');
    // The drawer is in the URL: a link (a notification's, with alerting.console-url set) opens it on a fresh page,
    // and closing it takes it out again, the list's own state left as it was.
    const opened = new URL(page.url());
    expect(opened.searchParams.get('open')).toMatch(/^[0-9a-f-]{36}$/);
    await page.goto(url(`/alerts?open=${opened.searchParams.get('open') ?? ''}`));
    await drawer.waitFor();
    expect(await drawer.getByTestId('alert-facts').locator('[data-field="State"]').textContent()).toContain('firing');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await page.waitForURL((current) => !current.searchParams.has('open'));

    // From History: the resolved alert's own log and transitions.
    await page.goto(url('/alerts/history'));
    await page
      .locator(`tr[data-subject="${GONE}"]`)
      .getByRole('button', { name: `Open alert ${GONE}` })
      .click();
    const gone = page.getByRole('dialog', { name: `${RULE}: ${GONE}` });
    await gone.waitFor();
    const goneTransitions = gone.getByTestId('alert-transitions');
    await goneTransitions.locator('tr[data-transition="resolved"][data-actor="system"]').waitFor();
    await goneTransitions.locator('tr[data-transition="firing"]').waitFor();
    expect(await gone.getByRole('button', { name: /Acknowledge|Silence/ }).count()).toBe(0);
    await gone.getByTestId('alert-deliveries').locator('tr[data-event="firing"]').waitFor();
    expect(heard).toBeGreaterThanOrEqual(2);
    expect(pageErrors).toEqual([]);
  });
});
