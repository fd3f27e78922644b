// Clusters in a real Chromium with a real broker: the registration form probes (dry run) and shows every check's
// result before Save, saving lands on the cluster overview, and the clusters list shows the new cluster.
// Screenshots of the list, the registration form and the overview land in test-results/console/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteEveryListed } from '@test/retry-cleanup.ts';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import { startSingleNode, type Topology } from '@test/artemis/index.ts';
import { saveScreenshot, signInOverApi, startSignedInConsole, type SignedInConsole } from '@test/browser.ts';

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

    await removeClustersLeftByAnEarlierAttempt();
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
    // The results are brought into view (they land below the form), and the form can be left without saving.
    await expect
      .poll(() => page.getByTestId('probe-results').evaluate((element) => element.getBoundingClientRect().top))
      .toBeLessThan(800);
    expect(await page.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/clusters');
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
    // The table renders its frame before the rows arrive; a row carries its node's role once they have.
    await nodes.locator('tbody tr[data-role]').first().waitFor();
    expect(await nodes.innerText()).toContain('PRIMARY');
    await page.getByTestId('capability-ledger').getByText('MANAGEMENT_READ').waitFor();
    expect(await page.getByTestId('split-brain').count()).toBe(0);
    // Registration told the worker (ClusterRegistered over the database bus); its tier A polls the node and the
    // overview, refreshed by the stream, marks the node serving — the whole chain with nothing but real parts.
    await page.locator('[data-testid="topology-node"][data-serving="true"]').waitFor({ timeout: 30_000 });
    // The worker's native subscription confirms MESSAGE_IO, which registration could only call UNKNOWN; the ledger
    // follows without a reload and says how it knows.
    const messageIo = page.getByTestId('capability-ledger').locator('[data-capability-row="MESSAGE_IO"]');
    await messageIo.locator('[data-value="AVAILABLE"]').waitFor({ timeout: 30_000 });
    expect(await messageIo.getByTestId('capability-confirmed').innerText()).toContain(
      "by the worker's native connection",
    );
    await saveScreenshot(page, 'cluster-overview');
    // With one cluster, a per-cluster screen's home opens it (ClusterChoice); the files of the shared console, among
    // several clusters, pick theirs from the list (browser.ts's pickClusterFrom).
    const overviewPath = new URL(page.url()).pathname;
    for (const home of ['/config', '/routing', '/rr']) {
      await page.goto(url(home));
      await page.waitForURL(url(`${overviewPath}${home}`));
    }

    await page.goto(url('/clusters'));
    const row = page.getByTestId('table-clusters').locator('tbody tr').filter({ hasText: 'browser-cluster' });
    await row.waitFor();
    expect((await row.innerText()).toLowerCase()).toContain('staging');
    expect(await row.locator('[data-health]').getAttribute('data-health')).toBe('healthy');
    await saveScreenshot(page, 'clusters-list');
  });

  it('shows a stopped node go down on the list and the overview without a reload, and says the list is live', async () => {
    // The list in this tab, the overview in another; neither is reloaded after the broker stops.
    // A retry finds the node stopped by the first attempt; start does nothing when it is already serving.
    await broker?.nodes[0]?.start();
    const row = page.getByTestId('table-clusters').locator('tbody tr').filter({ hasText: 'browser-cluster' });
    await page.locator('[data-testid="stream-state"][data-state="connected"]').waitFor({ timeout: 30_000 });
    const overview = await page.context().newPage();
    try {
      const clusterId = await row.getAttribute('data-row-key');
      await overview.goto(url(`/clusters/${clusterId ?? ''}`));
      const clusterHealth = overview.getByTestId('cluster-health').locator('[data-health]');
      await clusterHealth.and(overview.locator('[data-health="healthy"]')).waitFor({ timeout: 30_000 });
      await overview.locator('[data-testid="stream-state"][data-state="connected"]').waitFor({ timeout: 30_000 });

      const stoppedAt = Date.now();
      await broker?.nodes[0]?.stop();
      await row.locator('[data-health="down"]').waitFor({ timeout: 40_000 });
      await clusterHealth.and(overview.locator('[data-health="down"]')).waitFor({ timeout: 40_000 });
      // Within one scrape interval (tier A, 10 s by default) plus the call's own failure and the signal's trip.
      expect(Date.now() - stoppedAt).toBeLessThan(30_000);
      await saveScreenshot(page, 'clusters-list-node-down');
    } finally {
      await overview.close();
    }
  });
});

/** A retry starts from the empty fleet the first-cluster link needs. */
async function removeClustersLeftByAnEarlierAttempt(): Promise<void> {
  const { headers } = await signInOverApi(app.baseUrl);
  await deleteEveryListed(app.baseUrl, headers, '/clusters', ({ id }) => `/clusters/${id}`);
}

async function cookieHeader(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}
