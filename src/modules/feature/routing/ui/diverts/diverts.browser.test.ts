// The routing screen's Diverts tab in a real Chromium against Flotilla started as `npm start` does and a real leased
// broker: a divert made on the broker is listed with its node; "Create divert" previews (a dry run, nothing made)
// and creates one the broker then holds; its row menu's "Remove divert…" opens the held remove, after which the
// broker no longer has it. Everything under the lease's prefix, the list searched by it.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import {
  pressAndHold,
  saveScreenshot,
  signInOverApi,
  openSharedConsole,
  tableLoaded,
  type SharedConsole,
} from '@test/browser.ts';
import { leaveSharedConsole, registerSingleNodeCluster } from '@test/browser-cluster.ts';
import { brokerMbean, jolokiaExec, jolokiaRead } from '@test/jolokia.ts';

const broker = leaseSingleNode();
const names = {
  orders: broker.name('dvui.orders'),
  copies: broker.name('dvui.copies'),
  existing: broker.name('dvui.existing'),
  made: broker.name('dvui.made'),
};
let session: SharedConsole | undefined;
let app: SharedConsole['app'];
let page: Page;
let clusterId: string;
const pageErrors: string[] = [];

const node = () => broker.nodes[0] as BrokerNode;
const mbean = () => brokerMbean(node().name);
const divertNames = async () => (await jolokiaRead(node(), mbean(), 'DivertNames')) as string[];
const tab = () =>
  `${app.baseUrl}/clusters/${clusterId}/routing?tab=diverts&diverts.q=${encodeURIComponent(broker.prefix)}`;
const row = (name: string) => page.getByTestId('table-routing-diverts').locator('tbody tr', { hasText: name });

beforeAll(async () => {
  await jolokiaExec(node(), mbean(), 'createDivert(java.lang.String)', [
    JSON.stringify({ name: names.existing, address: names.orders, 'forwarding-address': names.copies }),
  ]);
  session = await openSharedConsole();
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const api = await signInOverApi(app.baseUrl);
  clusterId = await registerSingleNodeCluster(app.baseUrl, api, node(), 'diverts-cluster');
}, 240_000);

afterAll(async () => {
  await leaveSharedConsole(session, { clusterId });
  // The lease removes the suite's addresses and queues, not its diverts.
  for (const name of [names.existing, names.made])
    await jolokiaExec(node(), mbean(), 'destroyDivert(java.lang.String)', [name]).catch(() => undefined);
  await broker.stop();
});

describe('the Diverts tab on a real broker', () => {
  it('lists a divert with the node that has it, and how old the read is', async () => {
    await page.goto(tab());
    await tableLoaded(page);
    await row(names.existing).waitFor({ timeout: 20_000 });
    const presence = row(names.existing).locator('[data-presence]');
    expect(await presence.getAttribute('data-presence')).toBe('present');
    expect(await presence.getAttribute('data-node')).toBe(node().name);
    await page
      .getByTestId('data-age')
      .filter({ hasText: /^Read / })
      .waitFor();
    await saveScreenshot(page, 'routing-diverts');
  });

  it('creates a divert after a dry run that made nothing', async () => {
    await page.goto(tab());
    await tableLoaded(page);
    await page.getByRole('button', { name: 'Create divert' }).click();
    const create = page.getByRole('dialog', { name: 'Create a divert' });
    await create.getByLabel('Name').fill(names.made);
    await create.getByLabel('Source address').fill(names.orders);
    await create.getByLabel('Forwarding address').fill(names.copies);
    await create.getByLabel('Filter').fill("region = 'EU'");
    await create.getByRole('button', { name: 'Preview' }).click();
    await create.getByText(/would be created on 1 node/).waitFor();
    expect(await divertNames()).not.toContain(names.made);
    await create.getByRole('button', { name: 'Create on 1 node' }).click();
    await create.locator('[data-testid="operation-outcome"][data-outcome="SUCCEEDED"]').waitFor();
    expect(await divertNames()).toContain(names.made);
    await create.getByRole('button', { name: 'Close' }).click();
    await row(names.made).waitFor({ timeout: 20_000 });
    expect(await row(names.made).innerText()).toContain("region = 'EU'");
  });

  it('removes a divert from its row menu, held to confirm', async () => {
    await page.goto(tab());
    await tableLoaded(page);
    await row(names.made)
      .getByRole('button', { name: /^Actions for/ })
      .click();
    await page.getByRole('menuitem', { name: 'Remove divert…' }).click();
    await page.waitForURL(/operate=remove-divert/);
    const remove = page.getByRole('dialog', { name: `Remove divert ${names.made}` });
    await remove.getByText(/would be removed from 1 node/).waitFor({ timeout: 20_000 });
    const outcome = remove.getByTestId('operation-outcome');
    await pressAndHold(remove.getByRole('button', { name: 'Hold to remove 1 divert (press and hold)' }), outcome);
    expect(await outcome.getAttribute('data-outcome')).toBe('SUCCEEDED');
    expect(await divertNames()).not.toContain(names.made);
    await remove.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.url()).not.toMatch(/operate=/);
    await expect.poll(() => row(names.made).count(), { timeout: 20_000 }).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
