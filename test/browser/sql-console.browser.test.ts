// The SQL console in a real Chromium, over rows put in message_index as the capture and sampling writers leave them
// (no broker needed for the index source): a syntax error said in words with its token marked in the editor, a query
// on the index with its rows, its bounds and the sampled source's permanent notice, the query in the URL (a reload
// shows the same), the rows exported as CSV, and the tail of the index appending rows as they are indexed, held while
// paused. Screenshots land in test-results/console/.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import {
  pressAndHold,
  saveScreenshot,
  saveScreenshotsInBothThemes,
  startSignedInConsole,
  tableLoaded,
  type SignedInConsole,
} from '@test/browser.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';

const pool = new AppPool();
let session: SignedInConsole | undefined;
let app: AppProcess;
let page: Page;
let db: Database;
let clusterId: string;
const pageErrors: string[] = [];

const url = (path: string) => `${app.baseUrl}${path}`;
const editor = () => page.locator('[data-testid="sql-editor"] .cm-content');
const rowCells = (column: string) =>
  page.locator(`[data-testid="table-sql-rows"] tbody tr[data-row-key] td[data-column="${column}"]`).allInnerTexts();

/** Replaces the editor's text (inserted whole: no bracket closing or completion in between) and runs it. */
async function runQuery(sql: string): Promise<void> {
  await editor().click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(sql);
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+Enter');
  // The query is in the URL once it runs: what the page showed for the one before is gone from then on.
  await page.waitForURL((at) => at.searchParams.get('sql') === sql);
}

/** One index row as the sampling writer leaves it (masked content; the sealed original is no concern here). */
async function insertIndexRow(row: {
  address: string;
  queue: string | null;
  messageId: string;
  minutesAgo: number;
  properties: Record<string, unknown>;
  subscriptionId: string;
}): Promise<void> {
  await db.query(
    `INSERT INTO message_index (indexed_at, row_id, cluster_id, node_id, node_name, address, queue, message_id,
                                message_time, priority, durable, origin, subscription_id, properties, body,
                                policy_version, sealed_cipher, sealed_key_id)
     VALUES (now(), $1, $2, $3, 'broker-one', $4, $5, $6, now() - make_interval(mins => $7), 4, true, 'sample', $8,
             $9, '{"total": 12}', 1, 'fixture', 'none')`,
    [
      randomUUID(),
      clusterId,
      randomUUID(),
      row.address,
      row.queue,
      row.messageId,
      row.minutesAgo,
      row.subscriptionId,
      JSON.stringify(row.properties),
    ],
  );
}

/** Waits for the answer; a failure shown instead is thrown with its words, so the test says what the server said. */
async function answerShown(): Promise<void> {
  const answer = page.getByTestId('sql-answer');
  const failure = page.getByTestId('problem').or(page.getByTestId('sql-syntax-error'));
  await answer.or(failure).first().waitFor();
  if (await failure.count()) throw new Error(`the console showed a failure: ${await failure.first().innerText()}`);
  await tableLoaded(page);
}

beforeAll(async () => {
  session = await startSignedInConsole(pool);
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  db = openDatabase(session.database.url, { poolSize: 2, applicationName: 'sql-console-browser-test' });
  clusterId = await insertClusterRow(db.prisma, { name: 'payments' });
  // The index is fed by sampling orders.eu: every answer from it must say what sampling cannot see.
  const subscriptionId = randomUUID();
  await db.query(
    `INSERT INTO sql_subscription (id, cluster_id, address, mode, queue, state) VALUES ($1, $2, 'orders.eu', 'SAMPLE', 'orders.eu', 'ACTIVE')`,
    [subscriptionId, clusterId],
  );
  for (const [index, orderId] of ['7731', '7732', '7731'].entries())
    await insertIndexRow({
      address: 'orders.eu',
      queue: 'orders.eu',
      messageId: `ID:order-${index + 1}`,
      minutesAgo: 10 - index,
      properties: { orderId, 'order-note': index === 2 ? '=1+1' : 'plain' },
      subscriptionId,
    });
  await insertIndexRow({
    address: 'billing',
    queue: 'billing',
    messageId: 'ID:invoice-1',
    minutesAgo: 5,
    properties: { orderId: '7731' },
    subscriptionId,
  });
}, 240_000);

afterAll(async () => {
  await (db as Database | undefined)?.close();
  await session?.close();
});

describe('the SQL console', () => {
  it('opens from Messaging → SQL console on the only cluster, and says a syntax error and marks its token', async () => {
    await page.goto(url('/'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'SQL console' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/sql`));
    await editor().waitFor();

    await runQuery('SELECT id, nod FROM "orders.#"');
    const said = page.getByTestId('sql-syntax-error');
    await said.waitFor();
    expect(await said.innerText()).toContain('nod');
    expect(await page.getByTestId('sql-syntax-token').innerText()).toBe('nod');
    // The same token is underlined in the editor, where it stands in the text.
    expect(await page.locator('[data-testid="sql-editor"] .cm-lintRange-error').allInnerTexts()).toEqual(['nod']);
  });

  const QUERY = `SELECT id, address, properties.orderId FROM "orders.#" WHERE properties.orderId = '7731' ORDER BY time`;

  it('runs a query on the index: its rows, no bound reached, and the permanent notice of the sampled source', async () => {
    await runQuery(QUERY);
    await answerShown();
    expect(await rowCells('id')).toEqual(['ID:order-1', 'ID:order-3']);
    expect(await rowCells('address')).toEqual(['orders.eu', 'orders.eu']);
    expect(await page.getByTestId('sql-syntax-error').count()).toBe(0);
    expect(await page.locator('[data-testid="sql-editor"] .cm-lintRange-error').count()).toBe(0);
    expect(await page.getByTestId('sql-bounds').getAttribute('data-bounds')).toBe('none');
    const notices = page.getByTestId('sql-notices');
    expect(await notices.innerText()).toMatch(/sampled.*invisible/i);
    // Not dismissable: the notice has no close button.
    expect(await notices.locator('.mantine-Alert-closeButton').count()).toBe(0);
    expect(await page.getByTestId('sql-age').innerText()).toMatch(/Answered .* 2 rows/);
    await saveScreenshotsInBothThemes(page, 'sql-console', async () => {
      await page.getByTestId('sql-answer').waitFor();
      await tableLoaded(page);
    });
  });

  it('keeps the query and its source in the URL: a reload shows the same query and rows', async () => {
    const current = new URL(page.url());
    expect(current.pathname).toBe(`/clusters/${clusterId}/sql`);
    expect(current.searchParams.get('sql')).toBe(QUERY);
    expect(current.searchParams.get('source')).toBeNull(); // the index is the default

    await page.reload();
    await answerShown();
    await expect.poll(() => editor().innerText()).toBe(QUERY);
    expect(await rowCells('id')).toEqual(['ID:order-1', 'ID:order-3']);

    // The Live source is a new URL entry; back returns to the index's answer.
    await page.getByRole('radiogroup', { name: 'Source' }).getByText('Live', { exact: true }).click();
    await page.waitForURL(/source=live/);
    await page.goBack();
    await page.waitForURL((at) => !at.search.includes('source=live'));
    await page.getByTestId('sql-answer').waitFor();
    expect(await page.getByTestId('sql-answer').getAttribute('data-source')).toBe('index');
  });

  it('exports the rows as CSV, cells that look like formulas as text', async () => {
    await runQuery(`SELECT id, durable, properties['order-note'] AS note FROM "orders.eu" ORDER BY time`);
    await expect.poll(() => rowCells('id')).toEqual(['ID:order-1', 'ID:order-2', 'ID:order-3']);
    // A boolean is shown as its word (React renders no boolean by itself).
    expect(await rowCells('durable')).toEqual(['true', 'true', 'true']);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.trim().split(/\r?\n/)).toEqual([
      'id,durable,note',
      'ID:order-1,true,plain',
      'ID:order-2,true,plain',
      `ID:order-3,true,"'=1+1"`,
    ]);
    expect(download.suggestedFilename()).toBe('sql-payments.csv');
  });

  it('tails the index: rows appear as they are indexed, and pausing holds them until resumed', async () => {
    const tailIds = () =>
      page.locator('[data-testid="table-sql-tail"] tbody tr[data-row-key] td[data-column="id"]').allInnerTexts();
    await page.getByRole('radiogroup', { name: 'Source' }).getByText('Tail', { exact: true }).click();
    await page.waitForURL(/source=tail/);
    const status = page.getByTestId('sql-tail-status');
    await expect.poll(() => status.getAttribute('data-state')).toBe('open');
    // The tail starts from now: the rows indexed before are not replayed.
    expect(await tailIds()).toEqual([]);

    const subscriptionId = (
      await db.query<{ id: string }>(`SELECT id FROM sql_subscription WHERE cluster_id = $1`, [clusterId])
    )[0]?.id;
    if (!subscriptionId) throw new Error('the sampled subscription is gone');
    const indexed = (messageId: string) =>
      insertIndexRow({
        address: 'orders.eu',
        queue: 'orders.eu',
        messageId,
        minutesAgo: 0,
        properties: { orderId: '9000' },
        subscriptionId,
      });
    await indexed('ID:live-1');
    await expect.poll(tailIds, { timeout: 20_000 }).toEqual(['ID:live-1']);

    await page.getByRole('button', { name: 'Pause' }).click();
    await indexed('ID:live-2');
    await expect
      .poll(() => page.getByTestId('sql-tail-held').innerText(), { timeout: 20_000 })
      .toMatch(/1 new row held/);
    expect(await tailIds()).toEqual(['ID:live-1']);
    await page.getByRole('button', { name: 'Resume' }).click();
    // Newest first.
    await expect.poll(tailIds).toEqual(['ID:live-2', 'ID:live-1']);
    await saveScreenshot(page, 'sql-console-tail');
  });

  it('saves a shared query, lists it, and opens it (it runs, as a link would)', async () => {
    const SAVED = `SELECT id FROM "billing" WHERE properties.orderId = '7731'`;
    await page.getByRole('radiogroup', { name: 'Source' }).getByText('Index', { exact: true }).click();
    await runQuery(SAVED);
    await answerShown();
    await page.getByRole('button', { name: 'Saved queries' }).click();
    const drawer = page.getByRole('dialog', { name: 'Saved queries' });
    await drawer.getByLabel('Save the editor’s query as').fill('Invoice of 7731');
    await drawer.getByLabel(/Shared/).check();
    // A retry finds the query saved by the attempt before: the button then says it replaces it.
    await drawer.getByRole('button', { name: /^(Save|Replace)$/ }).click();
    await drawer.getByTestId('saved-query-saved').waitFor();
    const listed = drawer.locator('[data-testid="table-sql-saved-queries"] tbody tr[data-row-key]');
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.first().innerText()).toMatch(/Invoice of 7731[\s\S]*index[\s\S]*you\s*shared/i);

    // Another query in the editor; opening the saved one brings it back and runs it.
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await runQuery(QUERY);
    await answerShown();
    await page.getByRole('button', { name: 'Saved queries' }).click();
    await drawer.getByRole('button', { name: 'Open Invoice of 7731' }).click();
    await page.waitForURL((at) => at.searchParams.get('sql') === SAVED);
    await drawer.waitFor({ state: 'hidden' });
    await answerShown();
    await expect.poll(() => rowCells('id')).toEqual(['ID:invoice-1']);
    await expect.poll(() => editor().innerText()).toBe(SAVED);
  });

  it('lists what feeds the index with its state, says what capture and sampling cannot see, and previews a sample', async () => {
    await page.goto(url(`/clusters/${clusterId}/sql`));
    await page.getByRole('link', { name: 'Capture and sampling' }).click();
    await page.waitForURL(url(`/clusters/${clusterId}/sql/subscriptions`));
    await tableLoaded(page);
    const row = page.locator('[data-testid="table-sql-subscriptions"] tbody tr[data-row-key]');
    expect(await row.count()).toBe(1);
    expect(await row.first().innerText()).toMatch(/orders\.eu\s+SAMPLE\s+orders\.eu\s+ACTIVE/);
    const limits = await page.getByTestId('capture-limits').innerText();
    expect(limits).toMatch(/address-scoped.*cannot tell which queues/i);
    expect(limits).toMatch(/Sampling .*invisible/i);
    expect(await page.getByTestId('capture-limits').locator('.mantine-Alert-closeButton').count()).toBe(0);

    await saveScreenshot(page, 'sql-subscriptions');
    await page.getByRole('button', { name: 'Add subscription' }).click();
    const dialog = page.getByTestId('add-subscription');
    await dialog.getByRole('combobox', { name: 'Address' }).fill('billing');
    await dialog.getByText('Sample (browse one queue)').click();
    await dialog.getByRole('textbox', { name: 'Queue' }).fill('billing');
    await dialog.getByRole('button', { name: 'Preview (dry run)' }).click();
    // What the server says would happen, once.
    expect(await dialog.getByTestId('subscription-preview').innerText()).toMatch(
      /^Dry run: nothing stored\. The sampler/,
    );
    // Nothing is added by the dry run.
    expect(await row.count()).toBe(1);
    await saveScreenshot(page, 'sql-subscriptions-add');
    await page.keyboard.press('Escape');
  });

  it('removes a subscription after its dry run, held to confirm', async () => {
    await page.goto(url(`/clusters/${clusterId}/sql/subscriptions`));
    await tableLoaded(page);
    const rows = page.locator('[data-testid="table-sql-subscriptions"] tbody tr[data-row-key]');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByRole('button', { name: 'Remove…' }).click();
    const dialog = page.getByTestId('remove-subscription');
    expect(await dialog.getByTestId('subscription-preview').innerText()).toMatch(/^Dry run/);
    // The dry run removed nothing.
    expect(
      await db
        .query(`SELECT id FROM sql_subscription WHERE cluster_id = $1`, [clusterId])
        .then((found) => found.length),
    ).toBe(1);
    await pressAndHold(
      dialog.getByRole('button', { name: 'Hold to remove 1 subscription' }),
      dialog.getByTestId('subscription-removed'),
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => rows.count()).toBe(0);
    expect(
      await db
        .query(`SELECT id FROM sql_subscription WHERE cluster_id = $1`, [clusterId])
        .then((found) => found.length),
    ).toBe(0);
  });

  it('threw nothing in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
