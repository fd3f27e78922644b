// Clusters in a real Chromium with a real broker: the registration form probes (dry run) and shows every check's
// result before Save, saving lands on the cluster overview, and the clusters list shows the new cluster.
// Screenshots of the list, the registration form and the overview land in test-results/console/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPool, type AppProcess } from '../support/app-process.ts';
import { startSingleNode, type Topology } from '../support/artemis/index.ts';
import { saveScreenshot, startSignedInConsole, type SignedInConsole } from '../support/browser.ts';

const pool = new AppPool();
let session: SignedInConsole | undefined;
let broker: Topology | undefined;
let app: AppProcess;
let page: Page;

const url = (path: string) => `${app.baseUrl}${path}`;

beforeAll(async () => {
  [session, broker] = await Promise.all([startSignedInConsole(pool), startSingleNode({ name: 'browser-node' })]);
  ({ app, page } = session);
}, 240_000);

afterAll(async () => {
  await session?.close();
  await broker?.stop();
});

describe('clusters console', () => {
  it('registers a single node through the probe, lands on its overview, and lists it', async () => {
    const node = broker?.nodes[0];
    if (!node) throw new Error('no broker');

    await page.goto(url('/'));
    await page.getByRole('link', { name: 'Register your first cluster' }).click();
    await page.getByRole('heading', { name: 'Register a cluster', level: 1 }).waitFor();

    const form = page.getByRole('form', { name: 'Register cluster' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('browser-cluster');
    await form.getByRole('textbox', { name: 'Environment' }).fill('staging');
    await form.getByRole('textbox', { name: 'Management URL' }).fill(node.managementUrl);
    await form.getByRole('textbox', { name: 'User' }).fill(node.user);
    await form.getByRole('textbox', { name: 'Password' }).fill(node.password);
    expect(await page.getByRole('button', { name: 'Save cluster' }).count()).toBe(0);
    await form.getByRole('button', { name: 'Probe' }).click();

    const checks = page.getByTestId('check-results');
    await checks.waitFor({ timeout: 60_000 });
    for (const id of ['reachability', 'authentication', 'version', 'capabilities', 'topology']) {
      expect(await checks.locator(`[data-check="${id}"]`).getAttribute('data-status')).toBe('ok');
    }
    expect(await page.getByTestId('probed-nodes').innerText()).toContain('browser-node');
    // The probe saved nothing.
    const before = await fetch(url('/api/v1/clusters'), { headers: { cookie: await cookieHeader(page) } });
    expect(((await before.json()) as { total: number }).total).toBe(0);
    await saveScreenshot(page, 'clusters-registration');

    await page.getByRole('button', { name: 'Save cluster' }).click();
    await page.waitForURL(/\/clusters\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'browser-cluster', level: 1 }).waitFor();
    const nodes = page.getByTestId('cluster-nodes');
    await nodes.locator('tbody tr').first().waitFor();
    expect(await nodes.innerText()).toContain('PRIMARY');
    await page.getByTestId('capability-ledger').getByText('MANAGEMENT_READ').waitFor();
    expect(await page.getByTestId('split-brain').count()).toBe(0);
    // Registration told the worker (ClusterRegistered over the database bus); its tier A polls the node and the
    // overview, refreshed by the stream, marks the node serving — the whole chain with nothing but real parts.
    await page.locator('[data-testid="topology-node"][data-serving="true"]').waitFor({ timeout: 30_000 });
    await saveScreenshot(page, 'cluster-overview');

    await page.goto(url('/clusters'));
    const row = page.getByTestId('table-clusters').locator('tbody tr').filter({ hasText: 'browser-cluster' });
    await row.waitFor();
    expect((await row.innerText()).toLowerCase()).toContain('staging');
    expect(await row.locator('[data-health]').getAttribute('data-health')).toBe('healthy');
    await saveScreenshot(page, 'clusters-list');
  });
});

async function cookieHeader(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}
