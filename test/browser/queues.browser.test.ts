// The queue grid in a real Chromium: the first screen built on the row-menu, link and selection slots. Rows are
// seeded as the scrape leaves them (no broker needed to test the console). It checks the navigation path, sort and
// page in the URL across reload and back, the row menu's sections and Copy name, the name link to the detail view
// with its per-node cells, the selection panel, a cluster-scoped stream signal refreshing the grid, and the
// cluster.header summary. Screenshots land in test-results/console/.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import {
  saveScreenshot,
  saveScreenshotsInBothThemes,
  startSignedInConsole,
  tableLoaded,
  type SignedInConsole,
  layoutFit,
} from '@test/browser.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { queryDatabase } from '@test/database.ts';
import { insertScrapedNode, insertScrapedQueues, recountTotals } from '@test/queue-rows.ts';

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
    const menu = page.getByRole('menu');
    // A retry starts with no menu left open by the attempt before it.
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Actions for orders.30' }).click();
    await menu.waitFor();
    const labels = await menu.locator('.mantine-Menu-label, [role="menuitem"]').allInnerTexts();
    // The queues module's items (its operations link to the queue page's dialogs), the resources module's way to the
    // queue's consumers and the messages module's browser, in the fixed sections.
    expect(labels).toEqual([
      'Open',
      'Open queue',
      'Its consumers',
      'Browse messages',
      'Copy',
      'Copy name',
      'Operate',
      'Purge…',
      'Delete messages…',
      'Move messages…',
      // As the row stands: orders.30 runs (so Pause, not Resume) and is no dead-letter queue (so no Retry).
      'Pause…',
      'Destroy',
      'Delete queue…',
    ]);
    await menu.getByRole('menuitem', { name: 'Copy name' }).click();
    await expect.poll(clipboard).toBe('orders.30');
    // The copy says it happened, beside the row's menu button and to a screen reader.
    await page.getByRole('tooltip', { name: 'Copied orders.30' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Copied orders.30' }).waitFor({ state: 'attached' });

    // By keyboard alone: Enter opens the menu, the arrows move between items, Enter runs one.
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Actions for orders.29' }).focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    // The menu takes the focus once it has opened (after its transition); the arrows move it from there.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="menu"]') !== null)).toBe(true);
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    for (let step = 0; step < 4 && (await focused()) !== 'Copy name'; step++) await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Copy name');
    await page.keyboard.press('Enter');
    await expect.poll(clipboard).toBe('orders.29');
  });

  it('links a queue name through queue.link to its detail, with a cell per node', async () => {
    // The grid as the tests above left it (sorted by depth), afresh: a retry would find the queue page its first
    // attempt went to.
    await page.goto(url(`/clusters/${clusterId}/queues?sort=-messageCount`));
    await tableLoaded(page);
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
    // The metrics module's charts (ECharts on canvas): depth, in-rate, out-rate and consumers; the range is in the URL.
    const charts = page.getByTestId('queue-charts');
    await charts.locator('figure canvas').first().waitFor();
    expect(await charts.locator('figure').count()).toBe(4);
    await charts.locator('label').filter({ hasText: /^6h$/ }).click();
    await page.waitForURL(/range=6h/);
    // Consumer health on the queue: no samples in the window yet, so too little to judge, said so with advice.
    const health = page.getByTestId('queue-consumer-health');
    await health.locator('[data-verdict="INSUFFICIENT_DATA"]').waitFor();
    expect(await health.innerText()).toContain('Too few samples in the window to judge');
    await saveScreenshot(page, 'queue-detail-light');

    // The row menu's Open item goes to the same place.
    await page.goBack();
    await tableLoaded(page);
    await page.getByRole('button', { name: 'Actions for orders.29' }).click();
    await page.getByRole('menuitem', { name: 'Open queue' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/queues/orders.29`));
    await page.getByRole('heading', { name: 'orders.29', level: 1 }).waitFor();
    // The tab names the queue and its cluster; breadcrumbs lead back up.
    await expect.poll(() => page.title()).toMatch(/^orders\.29 · .+ · Flotilla$/);
    expect(await page.getByTestId('breadcrumbs').getByRole('link').allInnerTexts()).toEqual([
      'Clusters',
      expect.any(String) as unknown as string,
      'Queues',
    ]);
  });

  it('links the row menu’s operations to the queue page’s dialogs, and to the message browser', async () => {
    await page.goto(url(`/clusters/${clusterId}/queues`));
    await tableLoaded(page);
    const actions = page.getByRole('button', { name: 'Actions for orders.03' });
    await actions.click();
    await page.getByRole('menuitem', { name: 'Purge…' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/queues/orders.03?operate=purge`));
    await page.getByRole('dialog', { name: 'Purge orders.03' }).waitFor();
    // No broker behind this cluster: the dry run says the node cannot be reached, and nothing can be confirmed.
    await page.keyboard.press('Escape');
    await page.waitForURL((current) => !current.search.includes('operate'));

    // Retry reached on a queue that is not a dead-letter queue (a link, say) says why instead of counting.
    await page.goto(url(`/clusters/${clusterId}/queues/orders.03?operate=retry`));
    const notOffered = page.getByTestId('operation-not-offered');
    await notOffered.waitFor();
    expect(await notOffered.innerText()).toContain('not a dead-letter or expiry queue');
    await notOffered.getByRole('button', { name: 'Close' }).click();

    await page.goto(url(`/clusters/${clusterId}/queues`));
    await tableLoaded(page);
    await actions.click();
    await page.getByRole('menuitem', { name: 'Browse messages' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/queues/orders.03/messages`));
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
    // A retry finds the row its first attempt inserted: taken out again, or the list would not start empty.
    await db.query(`DELETE FROM queue_snapshot WHERE cluster_id = $1 AND queue_name = 'late/arrival now'`, [clusterId]);
    await recountTotals(db.prisma, clusterId);
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

  it('lists every queue’s consumer-health verdict, reached from the cluster overview, the verdict filter in the URL', async () => {
    await page.goto(url(`/clusters/${clusterId}`));
    await page.getByTestId('cluster-health-summary').getByRole('link', { name: 'Consumer health' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/consumer-health`));
    await tableLoaded(page);
    const rows = page.getByTestId('table-consumer-health').locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    await page
      .locator('label')
      .filter({ hasText: /^insufficient data/ })
      .click();
    await page.waitForURL(/verdict=INSUFFICIENT_DATA/);
    await tableLoaded(page);
    // The unfiltered rows stay on screen until the filtered answer replaces them.
    const verdicts = () =>
      rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-verdict')));
    await expect.poll(async () => new Set(await verdicts())).toEqual(new Set(['INSUFFICIENT_DATA']));
    await saveScreenshot(page, 'consumer-health');
  });

  it('filters in the URL, hides internal queues unless asked, tints a growing backlog and exports the view as CSV', async () => {
    const node = await db.prisma.clusterNode.findFirstOrThrow({ where: { clusterId, brokerName: 'broker-one' } });
    // A dead-letter queue is one on an address the brokers' address settings name (never guessed from its name).
    // A retry finds the rows its first attempt inserted: inserted again they would clash.
    await db.query(
      `INSERT INTO scrape_dead_letter_address (cluster_id, address, kind) VALUES ($1, 'DLQ', 'dead-letter')
       ON CONFLICT DO NOTHING`,
      [clusterId],
    );
    await db.query(
      `DELETE FROM queue_snapshot WHERE cluster_id = $1 AND queue_name IN ('DLQ', '$.artemis.internal.sf.payments.peer')`,
      [clusterId],
    );
    await insertScrapedQueues(db.prisma, { clusterId, nodeId: node.id, scrapedAt: new Date() }, [
      { queueName: 'DLQ', messageCount: 4 },
      { queueName: '$.artemis.internal.sf.payments.peer', messageCount: 0, internal: true },
    ]);
    // orders.07's backlog grows by 2 messages a second, as the persist step measured it.
    await db.query(`UPDATE queue_snapshot SET depth_rate = 2 WHERE cluster_id = $1 AND queue_name = 'orders.07'`, [
      clusterId,
    ]);
    await recountTotals(db.prisma, clusterId);

    await page.goto(url(`/clusters/${clusterId}/queues?pageSize=100`));
    await tableLoaded(page);
    expect(await rowKeys()).not.toContain('$.artemis.internal.sf.payments.peer');
    expect(await page.locator('tr[data-row-key="orders.07"]').getAttribute('data-tone')).toBe('warning');
    expect(await page.locator('tr[data-row-key="orders.06"]').getAttribute('data-tone')).toBeNull();

    // The switch follows the URL: click, then wait for the URL (check() would expect the state at once).
    await page.getByRole('switch', { name: 'Show internal queues' }).click();
    await page.waitForURL(/internal=true/);
    await expect.poll(rowKeys).toContain('$.artemis.internal.sf.payments.peer');
    await page.getByRole('switch', { name: 'Show internal queues' }).click();
    await page.waitForURL((current) => !current.search.includes('internal='));

    await page.getByRole('group', { name: 'Filters' }).getByLabel('Kind', { exact: true }).click();
    await page.getByRole('option', { name: 'Dead-letter and expiry' }).click();
    await page.waitForURL(/deadLetter=true/);
    await expect.poll(rowKeys).toEqual(['DLQ']);
    await page.reload();
    await tableLoaded(page);
    expect(await rowKeys()).toEqual(['DLQ']);
    // The row menu fits the row: a dead-letter queue offers Retry; its queue paused, it offers Resume, not Pause.
    expect(await operateItems('DLQ')).toEqual([
      'Purge…',
      'Delete messages…',
      'Move messages…',
      'Pause…',
      'Retry dead letters…',
    ]);
    await db.query(`UPDATE queue_snapshot SET paused = true WHERE cluster_id = $1 AND queue_name = 'DLQ'`, [clusterId]);
    await recountTotals(db.prisma, clusterId);
    await page.reload();
    await tableLoaded(page);
    expect(await operateItems('DLQ')).toEqual([
      'Purge…',
      'Delete messages…',
      'Move messages…',
      'Resume…',
      'Retry dead letters…',
    ]);

    // A queue named like a spreadsheet formula is exported as text: a leading quote, never `=…` (formula injection).
    const formula = '=1+1';
    await db.query(`DELETE FROM queue_snapshot WHERE cluster_id = $1 AND queue_name = $2`, [clusterId, formula]);
    await insertScrapedQueues(db.prisma, { clusterId, nodeId: node.id, scrapedAt: new Date() }, [
      { queueName: formula, messageCount: 0 },
    ]);
    await recountTotals(db.prisma, clusterId);
    await page.goto(url(`/clusters/${clusterId}/queues?consumers=without&sort=-messageCount`));
    await tableLoaded(page);
    await expect.poll(async () => (await rowKeys())[0]).toBe('DLQ');
    expect(await rowKeys()).not.toContain('orders.01'); // one consumer each
    expect(await rowKeys()).toContain(formula);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^queue,address,routing type,messages,consumers/);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(
      (await rowKeys()).map((key) => (key === formula ? `"'${formula}"` : key)),
    );
    expect(download.suggestedFilename()).toBe('queues-payments.csv');
    await db.query(`DELETE FROM queue_snapshot WHERE cluster_id = $1 AND queue_name = $2`, [clusterId, formula]);
    await recountTotals(db.prisma, clusterId);
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

  it('says when the brokers’ dead-letter settings are not known, and what the marks rest on after a failed read', async () => {
    const notice = page.getByTestId('dead-letter-settings');
    const readGrid = async () => {
      await page.goto(url(`/clusters/${clusterId}/queues`));
      await tableLoaded(page);
    };
    try {
      // Never read (this cluster has no broker behind it): nothing is marked, and nothing is guessed from a name.
      await db.query('DELETE FROM scrape_dead_letter_read WHERE cluster_id = $1', [clusterId]);
      await readGrid();
      await notice.waitFor();
      // One sentence, the reason in brackets, said once (the status's reason used to repeat the whole sentence).
      expect(await notice.innerText()).toContain(
        'have not been read yet (the first read follows the first full sweep of the cluster), so no queue is marked',
      );
      expect((await notice.innerText()).match(/not been read yet/g)).toHaveLength(1);
      expect(await notice.innerText()).toContain('none is guessed from its name');

      // A good read: the grid says nothing.
      await db.query(
        `INSERT INTO scrape_dead_letter_read (cluster_id, attempted_at, read_at, ok, error, addresses)
         VALUES ($1, now(), now(), true, NULL, 3)`,
        [clusterId],
      );
      await readGrid();
      expect(await notice.count()).toBe(0);

      // A later read failed: the grid says why, and that the marks are those of the last good read.
      await db.query(
        `UPDATE scrape_dead_letter_read SET ok = false, error = 'management call refused', attempted_at = now()
          WHERE cluster_id = $1`,
        [clusterId],
      );
      await readGrid();
      await notice.waitFor();
      expect(await notice.innerText()).toMatch(
        /last read of the brokers’ address settings failed \(management call refused\); the marks are those of the read at/,
      );
    } finally {
      await db.query('DELETE FROM scrape_dead_letter_read WHERE cluster_id = $1', [clusterId]);
    }
  });

  it('logged no script errors (hydration mismatches included) on any screen above', () => {
    expect(pageErrors).toEqual([]);
  });
});

/** The Operate items of a row's menu (the menu is closed again after). */
async function operateItems(rowKey: string): Promise<string[]> {
  const menu = page.getByRole('menu');
  await page.getByRole('button', { name: `Actions for ${rowKey}` }).click();
  await menu.waitFor();
  const labels = await menu.locator('.mantine-Menu-label, [role="menuitem"]').allInnerTexts();
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  return labels.slice(labels.indexOf('Operate') + 1, labels.indexOf('Destroy'));
}
