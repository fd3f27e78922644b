// The fleet home and the Triage screen in a real Chromium, on rows as the scrape and the verdict refresher leave them
// (no broker needed to test the console): a card per cluster with its health in words, backlog, dead letters and
// worst verdict; the worst queues across clusters in order, the verdict filter in the URL, a fleet-wide
// consumer-health signal bringing a new verdict in without a reload, and a laptop width that fits.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import { layoutFit, saveScreenshot, startSignedInConsole, tableLoaded, type SignedInConsole } from '@test/browser.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { queryDatabase } from '@test/database.ts';
import { insertScrapedNode, insertScrapedQueues } from '@test/queue-rows.ts';

const INSTALLATION_SCOPE = '00000000-0000-0000-0000-000000000000';
const pool = new AppPool();
let session: SignedInConsole | undefined;
let app: AppProcess;
let page: Page;
let db: Database;
const clusters = { payments: '', billing: '' };
const pageErrors: string[] = [];

const url = (path: string) => `${app.baseUrl}${path}`;
const triageRows = () =>
  page
    .locator('[data-testid="table-triage"] tbody tr[data-row-key]')
    .evaluateAll((rows) =>
      rows.map((row) => `${row.getAttribute('data-cluster')}/${row.getAttribute('data-verdict')}`),
    );

async function storeVerdict(clusterId: string, queueName: string, verdict: string, severity: number, change: number) {
  await db.query(
    `INSERT INTO queue_verdict (cluster_id, address, queue_name, routing_type, verdict, severity, depth, depth_change,
                                in_rate, out_rate, consumers, delivering, evaluated_at)
     VALUES ($1, $2, $2, 'ANYCAST', $3, $4, 10, $5, 1, 0.5, 1, 0, now())`,
    [clusterId, queueName, verdict, severity, change],
  );
}

beforeAll(async () => {
  session = await startSignedInConsole(pool);
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      pageErrors.push(message.text());
  });
  db = openDatabase(session.database.url, { poolSize: 2, applicationName: 'triage-browser-test' });
  clusters.payments = await insertClusterRow(db.prisma, { name: 'payments' });
  clusters.billing = await insertClusterRow(db.prisma, { name: 'billing' });
  const fresh = new Date(Date.now() - 1_000);
  const payments = await insertScrapedNode(db.prisma, {
    clusterId: clusters.payments,
    brokerNodeId: 'p1',
    brokerName: 'pay-1',
    serving: true,
    sweptAt: fresh,
  });
  // DLQ is a dead-letter queue because the brokers' address settings name its address (never by its name).
  await db.query(
    `INSERT INTO scrape_dead_letter_address (cluster_id, address, kind) VALUES ($1, 'DLQ', 'dead-letter')`,
    [clusters.payments],
  );
  await insertScrapedQueues(db.prisma, { clusterId: clusters.payments, nodeId: payments, scrapedAt: fresh }, [
    { queueName: 'orders', messageCount: 1_200, consumerCount: 1 },
    { queueName: 'DLQ', messageCount: 7 },
  ]);
  const billing = await insertScrapedNode(db.prisma, {
    clusterId: clusters.billing,
    brokerNodeId: 'b1',
    brokerName: 'bill-1',
    serving: true,
    sweptAt: fresh,
  });
  await db.prisma.clusterNode.update({
    where: { id: billing },
    data: { lastFailureAt: new Date(), lastError: 'unreachable' },
  });
  await insertScrapedQueues(db.prisma, { clusterId: clusters.billing, nodeId: billing, scrapedAt: fresh }, [
    { queueName: 'invoices', messageCount: 40 },
  ]);
  await storeVerdict(clusters.payments, 'orders', 'FALLING_BEHIND', 4, 300);
  await storeVerdict(clusters.payments, 'DLQ', 'HEALTHY', 8, 0);
  await storeVerdict(clusters.billing, 'invoices', 'NO_CONSUMERS', 3, 0);
}, 240_000);

afterAll(async () => {
  await (db as Database | undefined)?.close();
  await session?.close();
});

describe('the fleet home and triage', () => {
  it('shows every cluster on the home page with its health, backlog, dead letters and worst verdict', async () => {
    await page.goto(url('/'));
    const payments = page.locator('[data-testid="fleet-cluster"][data-cluster="payments"]');
    await payments.waitFor();
    expect(await payments.locator('[data-health]').getAttribute('data-health')).toBe('UP');
    expect(await payments.getByTestId('fleet-backlog').innerText()).toBe('1,200');
    expect(await payments.getByTestId('fleet-dlq').innerText()).toBe('7');
    expect(await payments.locator('[data-verdict]').getAttribute('data-verdict')).toBe('FALLING_BEHIND');
    const billing = page.locator('[data-testid="fleet-cluster"][data-cluster="billing"]');
    expect(await billing.locator('[data-health]').getAttribute('data-health')).toBe('DOWN');
    expect(await billing.getByTestId('fleet-problems').innerText()).toBe('no node answers');
    expect(await page.getByTestId('fleet-attention').innerText()).toBe('2');
    await saveScreenshot(page, 'fleet-home');
  });

  it('lists the worst queues across clusters, the verdict filter in the URL, live on consumer-health', async () => {
    // A retry finds the verdict its first attempt stored (a third row) and another page: taken out, the home again.
    await db.query(`DELETE FROM queue_verdict WHERE cluster_id = $1 AND queue_name = 'payments.stuck'`, [
      clusters.payments,
    ]);
    await page.goto(url('/'));
    await page.getByRole('link', { name: 'Open triage' }).click();
    await page.waitForURL(url('/triage'));
    await tableLoaded(page);
    expect(await triageRows()).toEqual(['billing/NO_CONSUMERS', 'payments/FALLING_BEHIND']);
    // billing is down: its queues cannot be judged now, and the screen says so above the rows it still shows.
    const notJudged = page.getByTestId('triage-not-judged');
    await notJudged.waitFor();
    expect(
      await notJudged.locator('li[data-cluster]').evaluateAll((items) => items.map((item) => item.textContent)),
    ).toEqual(['billing: no node answers']);
    await saveScreenshot(page, 'triage');
    await page
      .locator('label')
      .filter({ hasText: /^no consumers$/ })
      .click();
    await page.waitForURL(/verdict=NO_CONSUMERS/);
    await expect.poll(triageRows).toEqual(['billing/NO_CONSUMERS']);
    await page.reload();
    await tableLoaded(page);
    expect(await triageRows()).toEqual(['billing/NO_CONSUMERS']);

    // The server sorts (sort in the URL): the backlog that grew most first, then the other way.
    await page.goto(url('/triage'));
    await tableLoaded(page);
    await page.getByRole('button', { name: 'Sort by Grew by', exact: true }).click();
    await page.waitForURL(/sort=depthChange/);
    await expect.poll(triageRows).toEqual(['billing/NO_CONSUMERS', 'payments/FALLING_BEHIND']);
    await page.getByRole('button', { name: 'Sort by Grew by, descending' }).click();
    await page.waitForURL(/sort=-depthChange/);
    await expect.poll(triageRows).toEqual(['payments/FALLING_BEHIND', 'billing/NO_CONSUMERS']);

    await page.goto(url('/triage'));
    await tableLoaded(page);
    await page.locator('[data-testid="stream-state"][data-state="connected"]').waitFor({ timeout: 30_000 });
    await storeVerdict(clusters.payments, 'payments.stuck', 'STALLED', 1, 0);
    // No polling while the stream is connected: only the fleet-wide signal can bring the new verdict in.
    await queryDatabase(session?.database.url ?? '', 'SELECT pg_notify($1, $2)', [
      'flotilla_stream',
      JSON.stringify({ topic: 'consumer-health', clusterId: INSTALLATION_SCOPE, ts: new Date().toISOString() }),
    ]);
    await expect
      .poll(triageRows, { timeout: 10_000 })
      .toEqual(['payments/STALLED', 'billing/NO_CONSUMERS', 'payments/FALLING_BEHIND']);
    await page.getByRole('link', { name: 'orders', exact: true }).click();
    await page.waitForURL(url(`/clusters/${clusters.payments}/queues/orders`));
  });

  it('reads at a laptop width without sideways scrolling or cut badges', async () => {
    await page.setViewportSize({ width: 1024, height: 700 });
    try {
      for (const [path, ready] of [
        ['/', () => page.getByTestId('fleet-totals').waitFor()],
        ['/triage', () => tableLoaded(page)],
      ] as const) {
        await page.goto(url(path));
        await ready();
        const { overflow, cutBadges } = await layoutFit(page);
        expect(overflow, path).toBeLessThanOrEqual(0);
        expect(cutBadges, path).toEqual([]);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('logged no script errors on any screen above', () => {
    expect(pageErrors).toEqual([]);
  });
});
