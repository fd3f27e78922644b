// The queue grid in a real Chromium: the first screen built on the row-menu, link and selection slots. Rows are
// seeded as the scrape leaves them (no broker needed to test the console). It checks the navigation path, sort and
// page in the URL across reload and back, the row menu's sections and Copy name, the name link to the detail view
// with its per-node cells, the selection panel, a cluster-scoped stream signal refreshing the grid, and the
// cluster.header summary. Screenshots land in test-results/console/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/server/db/database.ts';
import { AppPool, type AppProcess } from '../support/app-process.ts';
import {
  saveScreenshot,
  saveScreenshotsInBothThemes,
  startSignedInConsole,
  tableLoaded,
  type SignedInConsole,
  layoutFit,
} from '../support/browser.ts';
import { insertClusterRow } from '../support/cluster-rows.ts';
import { queryDatabase } from '../support/database.ts';
import { insertScrapedNode, insertScrapedQueues } from '../support/queue-rows.ts';

const pool = new AppPool();
let session: SignedInConsole | undefined;
let app: AppProcess;
let page: Page;
let db: Database;
let clusterId: string;
const pageErrors: string[] = [];

const url = (path: string) => `${app.baseUrl}${path}`;
const pathAndQuery = () => {
  const current = new URL(page.url());
  return `${current.pathname}${current.search}`;
};
const rowKeys = () =>
  page
    .locator('[data-testid="table-queues"] tbody tr[data-row-key]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row-key')));
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
/** Thirty `orders.NN` queues with NN messages each, plus one deep `invoices` queue on another address. */
const ORDER_QUEUES = Array.from({ length: 30 }, (_, index) => ({
  queueName: `orders.${String(index + 1).padStart(2, '0')}`,
  messageCount: index + 1,
  consumerCount: 1,
}));

beforeAll(async () => {
  session = await startSignedInConsole(pool);
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      pageErrors.push(message.text());
  });
  await session.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
  db = openDatabase(session.database.url, { poolSize: 2, applicationName: 'queues-browser-test' });
  clusterId = await insertClusterRow(db.prisma, { name: 'payments' });
  const fresh = new Date(Date.now() - 1_000);
  const first = await insertScrapedNode(db.prisma, {
    clusterId,
    brokerNodeId: 'n1',
    brokerName: 'broker-one',
    serving: true,
    sweptAt: fresh,
  });
  // The second node's last sweep is old: its numbers stay, marked stale.
  const old = new Date(Date.now() - 10 * 60_000);
  const second = await insertScrapedNode(db.prisma, {
    clusterId,
    brokerNodeId: 'n2',
    brokerName: 'broker-two',
    serving: true,
    sweptAt: old,
  });
  await insertScrapedQueues(db.prisma, { clusterId, nodeId: first, scrapedAt: fresh }, [
    ...ORDER_QUEUES,
    { queueName: 'invoices', address: 'billing', messageCount: 900, consumerCount: 0 },
  ]);
  await insertScrapedQueues(db.prisma, { clusterId, nodeId: second, scrapedAt: old }, [
    { queueName: 'invoices', address: 'billing', messageCount: 100, consumerCount: 2 },
  ]);
}, 240_000);

afterAll(async () => {
  await (db as Database | undefined)?.close();
  await session?.close();
});

describe('the queue grid', () => {
  it('opens from Messaging → Queues on the only cluster, sorted and paged in the URL across reload and back', async () => {
    await page.goto(url('/'));
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Queues' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/queues`));
    await tableLoaded(page);
    expect(await page.getByTestId('table-range').innerText()).toBe('1–25 of 31');
    expect((await rowKeys())[0]).toBe('invoices');

    await page.getByRole('button', { name: 'Sort by Messages' }).click();
    await page.waitForURL(/sort=messageCount/);
    await page.getByRole('button', { name: 'Sort by Messages, descending' }).click();
    await page.waitForURL(/sort=-messageCount/);
    await tableLoaded(page);
    await expect.poll(async () => (await rowKeys()).slice(0, 2)).toEqual(['invoices', 'orders.30']);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.waitForURL(/page=2/);
    await expect.poll(rowKeys).toEqual(['orders.06', 'orders.05', 'orders.04', 'orders.03', 'orders.02', 'orders.01']);

    await page.reload();
    await tableLoaded(page);
    expect(pathAndQuery()).toBe(`/clusters/${clusterId}/queues?sort=-messageCount&page=2`);
    await expect.poll(async () => (await rowKeys()).length).toBe(6);
    await page.goBack();
    await page.waitForURL((current) => !current.search.includes('page=2'));
    await expect.poll(async () => (await rowKeys())[0]).toBe('invoices');
    // The stale node's share is marked on the total.
    const invoices = page.locator('tr[data-row-key="invoices"]');
    expect(await invoices.locator('[data-column="messages"]').innerText()).toMatch(/1,000\s*stale/i);
    expect(await invoices.locator('[data-column="nodes"]').innerText()).toBe('2 / 2');
    await saveScreenshot(page, 'queues-grid-light');
  });

  it('offers the queue.actions row menu in its fixed sections, and Copy name copies the name', async () => {
    await page.getByRole('button', { name: 'Actions for orders.30' }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const labels = await menu.locator('.mantine-Menu-label, [role="menuitem"]').allInnerTexts();
    expect(labels).toEqual(['Open', 'Open queue', 'Copy', 'Copy name']);
    await menu.getByRole('menuitem', { name: 'Copy name' }).click();
    await expect.poll(clipboard).toBe('orders.30');

    // By keyboard alone: Enter opens the menu, the arrows move between items, Enter runs one.
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Actions for orders.29' }).focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Copy name');
    await page.keyboard.press('Enter');
    await expect.poll(clipboard).toBe('orders.29');
  });

  it('links a queue name through queue.link to its detail, with a cell per node', async () => {
    await page.locator('tr[data-row-key="invoices"]').getByRole('link', { name: 'invoices' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/queues/invoices`));
    await page.getByRole('heading', { name: 'invoices', level: 1 }).waitFor();
    await page.getByTestId('queue-cells').waitFor();
    expect(await page.getByTestId('total-messages').innerText()).toBe('1,000');
    expect(await page.getByTestId('total-consumers').innerText()).toBe('2');
    const cells = page.getByTestId('queue-cells').locator('tbody tr');
    expect(await cells.count()).toBe(2);
    expect(await cells.filter({ hasText: 'broker-two' }).getByTestId('stale-mark').count()).toBe(1);
    expect(await cells.filter({ hasText: 'broker-one' }).getByTestId('stale-mark').count()).toBe(0);
    await saveScreenshot(page, 'queue-detail-light');

    // The row menu's Open item goes to the same place.
    await page.goBack();
    await tableLoaded(page);
    await page.getByRole('button', { name: 'Actions for orders.29' }).click();
    await page.getByRole('menuitem', { name: 'Open queue' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/queues/orders.29`));
    await page.getByRole('heading', { name: 'orders.29', level: 1 }).waitFor();
  });

  it('shows the queues.selection panel for the picked rows, and copies their names', async () => {
    await page.goto(url(`/clusters/${clusterId}/queues?q=orders.1`));
    await tableLoaded(page);
    expect(await page.getByTestId('queues-selection').count()).toBe(0);
    await page.getByRole('checkbox', { name: 'Select orders.10' }).check();
    await page.getByRole('checkbox', { name: 'Select orders.12' }).check();
    const panel = page.getByTestId('queues-selection');
    expect(await panel.getByText('2 queues selected').count()).toBe(1);
    await panel.getByRole('button', { name: 'Copy names' }).click();
    await expect.poll(clipboard).toBe('orders.10\norders.12');
    await saveScreenshot(page, 'queues-selection-light');
    await page.getByRole('checkbox', { name: 'Select orders.10' }).uncheck();
    expect(await panel.getByText('1 queue selected').count()).toBe(1);
  });

  it('refreshes on a queues signal of its cluster, which only the cluster-scoped stream carries, and opens any name', async () => {
    await page.goto(url(`/clusters/${clusterId}/queues?q=late`));
    await tableLoaded(page);
    await page.locator('[data-testid="stream-state"][data-state="connected"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('empty-state').waitFor();

    const node = await db.prisma.clusterNode.findFirstOrThrow({ where: { clusterId, brokerName: 'broker-one' } });
    await insertScrapedQueues(db.prisma, { clusterId, nodeId: node.id, scrapedAt: new Date() }, [
      { queueName: 'late/arrival now', messageCount: 3 },
    ]);
    // No polling while the stream is connected: only the signal can bring the new row in.
    const signal = { topic: 'queues', clusterId, ts: new Date().toISOString() };
    await queryDatabase(session?.database.url ?? '', 'SELECT pg_notify($1, $2)', [
      'flotilla_stream',
      JSON.stringify(signal),
    ]);
    const late = page.locator('tr[data-row-key="late/arrival now"]');
    await late.waitFor({ timeout: 10_000 });

    // A name with a slash and a space is one path segment of the detail view's address.
    await late.getByRole('link', { name: 'late/arrival now' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/queues/late%2Farrival%20now`));
    await page.getByRole('heading', { name: 'late/arrival now', level: 1 }).waitFor();
    expect(await page.getByTestId('total-messages').innerText()).toBe('3');
  });

  it('puts a queue summary on the cluster overview through cluster.header', async () => {
    await page.goto(url(`/clusters/${clusterId}`));
    const summary = page.getByTestId('cluster-queues-summary');
    await summary.getByText('32 queues; the deepest is invoices').waitFor();
    await summary.getByRole('link', { name: 'Open queues' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/queues`));
  });

  it('reads at a laptop width without sideways scrolling or cut badges, in both themes', async () => {
    const screens: [string, string, () => Promise<void>][] = [
      ['queues-grid', `/clusters/${clusterId}/queues`, () => tableLoaded(page)],
      ['queue-detail', `/clusters/${clusterId}/queues/invoices`, () => page.getByTestId('queue-cells').waitFor()],
    ];
    await page.setViewportSize({ width: 1024, height: 700 });
    try {
      for (const [name, path, ready] of screens) {
        await page.goto(url(path));
        await ready();
        const { overflow, cutBadges } = await layoutFit(page);
        expect(overflow, `${name} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
        // Status badges (outcome, job status, stale) must show their whole word, not "DE…".
        expect(cutBadges, `${name} cuts badges`).toEqual([]);
        await saveScreenshot(page, `${name}-1024`);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    for (const [name, path, ready] of screens) {
      await page.goto(url(path));
      await saveScreenshotsInBothThemes(page, name, ready);
    }
  });

  it('logged no script errors (hydration mismatches included) on any screen above', () => {
    expect(pageErrors).toEqual([]);
  });
});
