// The Builder tab (brokerconfig's contribution to the routing screen's routing.tabs) in a real Chromium against
// Flotilla started as `npm start` does and a real leased broker, registered through a counting proxy: the declared
// document (a revision saved over REST) is drawn as the routing graph, a divert is added through the form (a second of
// one name is refused in the schema's words), a declared queue is removed and the removal discarded, and the draft is
// saved as a new revision with a comment — which the REST read shows — while no management write reached the broker:
// the proxy saw the console's reads but no operation that changes anything, and the broker lists no such divert.
// Nothing is applied, so nothing of the suite's is left on the broker beyond the lease's prefix.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { saveScreenshotsInBothThemes, signInOverApi, openSharedConsole, type SharedConsole } from '@test/browser.ts';
import { leaveSharedConsole, registerSingleNodeCluster } from '@test/browser-cluster.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { brokerMbean, jolokiaRead } from '@test/jolokia.ts';
import { httpClient, type RestCall } from '@test/rest-call.ts';

const broker = leaseSingleNode();
let session: SharedConsole | undefined;
let proxy: CountingProxy | undefined;
let app: SharedConsole['app'];
let page: Page;
let rest: RestCall;
let clusterId: string;
const pageErrors: string[] = [];

const names = {
  orders: broker.name('orders'),
  ordersQueue: broker.name('orders.q'),
  audit: broker.name('audit'),
  auditCopy: broker.name('audit-copy'),
  dla: broker.name('orders.dla'),
  bridge: broker.name('to-dr'),
  eu: broker.name('orders.eu'),
  euDivert: broker.name('eu-orders'),
};

/** A Jolokia operation that changes the broker (every write brokerconfig or routing could make starts so). */
const WRITE = /^(create|destroy|deploy|add|remove|delete|update|set|pause|resume|send|move|retry|expire|reset)/i;
const writesSeen = () => (proxy?.posts ?? []).flatMap((post) => post.operations.filter((op) => WRITE.test(op)));
// This file's diverts only: other files on the same leased broker make theirs meanwhile (routing's `copy-eu`).
const divertNames = async () =>
  (
    (await jolokiaRead(
      broker.nodes[0] as BrokerNode,
      brokerMbean((broker.nodes[0] as BrokerNode).name),
      'DivertNames',
    )) as string[]
  ).filter((name) => name.startsWith(broker.prefix));

const builder = () => page.getByTestId('builder-tab');
const graphItem = (id: string) => builder().locator(`[data-testid="routing-node"][data-item-id="${id}"]`);

beforeAll(async () => {
  session = await openSharedConsole();
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 1440, height: 1000 });
  const api = await signInOverApi(app.baseUrl);
  rest = httpClient(`${app.baseUrl}/api/v1`, api.headers);
  const node = broker.nodes[0] as BrokerNode;
  proxy = await startCountingProxy(node.managementUrl);
  clusterId = await registerSingleNodeCluster(app.baseUrl, api, { ...node, managementUrl: proxy.url }, 'builder');
  const saved = await rest<{ number: number }>('POST', `/clusters/${clusterId}/config/revisions`, {
    comment: 'the Builder suite’s declared routing',
    baseRevision: 0,
    document: {
      addressSettings: [{ match: broker.name('orders.#'), settings: { deadLetterAddress: names.dla } }],
      queues: [{ name: names.ordersQueue, address: names.orders }],
      diverts: [{ name: names.auditCopy, address: names.orders, forwardingAddress: names.audit }],
      bridges: [{ name: names.bridge, queueName: names.ordersQueue, staticConnectors: ['dr-connector'] }],
    },
  });
  expect(saved, JSON.stringify(saved.json)).toMatchObject({ status: 200, json: { number: 1 } });
  // Run on its own, the app may wait for the production build the set-up started (minutes on two shared cores).
}, 480_000);

afterAll(async () => {
  await leaveSharedConsole(session, { clusterId });
  await proxy?.close();
  await broker.stop();
});

describe('the Builder tab on the routing screen', () => {
  it('draws the declared document, adds a divert and saves a revision without a broker call', async () => {
    const divertsBefore = await divertNames();
    proxy?.reset();

    await page.goto(`${app.baseUrl}/clusters/${clusterId}/routing`);
    await page.getByRole('tab', { name: 'Builder' }).click();
    await builder().locator('[data-testid="builder-revision"][data-revision="1"]').waitFor();
    await builder().locator('[data-testid="routing-canvas"][data-ready="true"]').waitFor({ timeout: 30_000 });
    // Every declared item, and the addresses the declarations imply (the dead-letter one from the address setting).
    for (const id of [
      `queue:${names.ordersQueue}`,
      `divert:${names.auditCopy}`,
      `bridge:${names.bridge}`,
      `address:${names.orders}`,
      `address:${names.audit}`,
      `address:${names.dla}`,
    ])
      await graphItem(id).waitFor();

    // A divert of a name already declared is refused in the schema's words, and the draft stays as it was.
    const form = builder().getByTestId('builder-form-divert');
    await form.getByLabel(/^Name/).fill(names.auditCopy);
    await form.getByLabel(/^On address/).fill(names.orders);
    await form.getByLabel(/^Forwarding address/).fill(names.eu);
    await form.getByRole('button', { name: 'Add divert to the draft' }).click();
    await expect.poll(() => form.getByTestId('builder-entry-errors').innerText()).toContain('declared twice');
    expect(await builder().getByTestId('builder-changes').getAttribute('data-count')).toBe('0');

    await form.getByLabel(/^Name/).fill(names.euDivert);
    await form.getByLabel('Filter', { exact: true }).fill("region = 'eu'");
    await form.getByRole('button', { name: 'Add divert to the draft' }).click();
    await graphItem(`divert:${names.euDivert}`).waitFor();
    await graphItem(`address:${names.eu}`).waitFor();
    expect(await builder().getByTestId('builder-changes').innerText()).toContain(`+ diverts ${names.euDivert}`);

    // A declared item clicked in the graph can be removed from the draft; Discard brings the revision back.
    await graphItem(`queue:${names.ordersQueue}`).click();
    const selected = builder().getByTestId('builder-selected');
    await selected.getByRole('button', { name: 'Remove from the draft' }).click();
    await expect
      .poll(() => builder().getByTestId('builder-changes').innerText())
      .toContain(`− queues ${names.ordersQueue}`);
    await builder().getByRole('button', { name: 'Discard changes' }).click();
    await graphItem(`queue:${names.ordersQueue}`).waitFor();
    await expect.poll(() => builder().getByTestId('builder-changes').getAttribute('data-count')).toBe('0');

    // Added again (Discard dropped it), then saved with a comment: the dialog's dry run lists the change first.
    await form.getByLabel(/^Name/).fill(names.euDivert);
    await form.getByLabel(/^On address/).fill(names.orders);
    await form.getByLabel(/^Forwarding address/).fill(names.eu);
    await form.getByLabel('Filter', { exact: true }).fill("region = 'eu'");
    await form.getByRole('button', { name: 'Add divert to the draft' }).click();
    await graphItem(`divert:${names.euDivert}`).waitFor();
    await builder().getByRole('button', { name: 'Save as revision…' }).click();
    const save = page.getByTestId('save-dialog');
    await expect.poll(() => save.getByTestId('save-changes').innerText()).toContain(`+ diverts ${names.euDivert}`);
    await save.getByLabel('Comment').fill('EU orders diverted, drawn in the Builder');
    await save.getByRole('button', { name: 'Save revision' }).click();
    await builder().locator('[data-testid="builder-saved"][data-revision="2"]').waitFor();
    expect(await builder().getByTestId('builder-plan-link').getAttribute('href')).toBe(`/clusters/${clusterId}/config`);
    await builder().locator('[data-testid="builder-revision"][data-revision="2"]').waitFor();

    // The revision holds the divert as the form declared it (REST read).
    const revision = await rest<{ comment: string; document: { diverts: unknown[] } }>(
      'GET',
      `/clusters/${clusterId}/config/revisions/2`,
    );
    expect(revision.status).toBe(200);
    expect(revision.json.comment).toBe('EU orders diverted, drawn in the Builder');
    expect(revision.json.document.diverts).toContainEqual({
      name: names.euDivert,
      address: names.orders,
      forwardingAddress: names.eu,
      filter: "region = 'eu'",
      exclusive: false,
      routingType: 'STRIP',
    });

    // No broker call that changes anything: the proxy carried the console's reads of the broker, and not one write.
    expect(proxy?.posts.length ?? 0).toBeGreaterThan(0);
    expect(writesSeen()).toEqual([]);
    expect(await divertNames()).toEqual(divertsBefore);
    expect(divertsBefore).not.toContain(names.euDivert);

    await saveScreenshotsInBothThemes(page, 'routing-builder', async () => {
      await builder().locator('[data-testid="routing-canvas"][data-ready="true"]').waitFor();
    });
    expect(pageErrors).toEqual([]);
  });
});
