// Messaging → Dead letters in a real Chromium on rows seeded as the scrape leaves them (no broker: the live count
// fails, and the screen says so). The dead-letter queue of the cluster whose address settings were read is listed
// with its scraped depth, a queue merely named like a DLQ is not, the cluster whose settings were never read is named
// in a warning, and selecting a row opens the redrive dialog. Screenshots land in test-results/console/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import { saveScreenshotsInBothThemes, startSignedInConsole, tableLoaded, type SignedInConsole } from '@test/browser.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues } from '@test/queue-rows.ts';

const pool = new AppPool();
let session: SignedInConsole | undefined;
let app: AppProcess;
let page: Page;
let db: Database;
const pageErrors: string[] = [];

const url = (path: string) => `${app.baseUrl}${path}`;
const rowQueues = () =>
  page
    .locator('[data-testid="table-dead-letters"] tbody tr[data-row-key]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-queue')));

beforeAll(async () => {
  session = await startSignedInConsole(pool);
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  db = openDatabase(session.database.url, { poolSize: 2, applicationName: 'dead-letters-browser-test' });
  const fresh = new Date(Date.now() - 1_000);
  for (const name of ['payments', 'billing']) {
    const clusterId = await insertClusterRow(db.prisma, { name });
    const nodeId = await insertScrapedNode(db.prisma, {
      clusterId,
      brokerNodeId: `${name}-1`,
      brokerName: `${name}-one`,
      serving: true,
      sweptAt: fresh,
    });
    if (name === 'payments') {
      // Its brokers' settings were read: dead.letters is the dead-letter address.
      await db.query(
        `INSERT INTO scrape_dead_letter_address (cluster_id, address, kind) VALUES ($1, 'dead.letters', 'dead-letter')`,
        [clusterId],
      );
      await db.query(
        `INSERT INTO scrape_dead_letter_read (cluster_id, attempted_at, read_at, ok) VALUES ($1, now(), now(), true)`,
        [clusterId],
      );
    }
    await insertScrapedQueues(db.prisma, { clusterId, nodeId, scrapedAt: fresh }, [
      { queueName: 'orders', messageCount: 3 },
      { queueName: `${name}.dead`, address: 'dead.letters', messageCount: 7 },
      { queueName: 'DLQ.decoy', messageCount: 2 },
    ]);
  }
}, 240_000);

afterAll(async () => {
  await (db as Database | undefined)?.close();
  await session?.close();
});

describe('the dead letters screen', () => {
  it('lists the dead-letter queues the settings name, and says what it could not read', async () => {
    await page.goto(url('/'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dead letters' }).click();
    await page.waitForURL(url('/dead-letters'));
    await tableLoaded(page);
    expect(await rowQueues()).toEqual(['payments.dead']);
    const row = page.locator('tr[data-queue="payments.dead"]');
    expect(await row.locator('[data-column="depth"]').innerText()).toMatch(/7\s*scraped/i);
    expect(await page.getByTestId('unread-settings').innerText()).toContain('billing');
    expect(await page.getByTestId('node-failures').innerText()).toContain('payments');
    await saveScreenshotsInBothThemes(page, 'dead-letters', () => tableLoaded(page));
  });

  it('opens the redrive dialog for the selected rows', async () => {
    // The screen the test above left, afresh: a retry would find the row selected and the dialog open.
    await page.goto(url('/dead-letters'));
    await tableLoaded(page);
    expect(await page.getByTestId('redrive').isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'Select payments.dead of payments' }).check();
    await page.getByTestId('redrive').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Redrive payments.dead of payments');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    // No broker here: the dry run answers with its problem, and nothing is held to confirm.
    await dialog.getByRole('alert').first().waitFor();
    expect(pageErrors).toEqual([]);
  });
});
