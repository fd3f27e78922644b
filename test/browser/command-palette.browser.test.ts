// The command palette in a real Chromium against Flotilla started as `npm start` starts it, on a fresh database with
// clusters and scraped queues seeded as rows (no broker needed): Ctrl+K opens it from any page, part of a screen's
// name and Enter go to that screen, part of a cluster's name (arrows choosing between two) and Enter go to the
// cluster's page, an unmatched text shows the empty state, Escape closes, and the header's Search button opens it
// too. Queues come from the fleet-wide search `GET /api/v1/queues?q=` (the triage module): one test uses the real
// endpoint, one answers in the browser to show what the palette makes of a
// hit (the queue page's URL through the `queue.link` slot) and of a 404 (no Queues section, no error).
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import {
  saveScreenshot,
  signInOverApi,
  startSignedInConsole,
  type ApiSession,
  type SignedInConsole,
} from '@test/browser.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues } from '@test/queue-rows.ts';

const pool = new AppPool();
let session: SignedInConsole | undefined;
let app: AppProcess;
let page: Page;
let db: Database;
let api: ApiSession;
const clusterIds: Record<string, string> = {};
const pageErrors: string[] = [];

const LABEL = 'Go to a screen, cluster or queue';
const url = (path: string) => `${app.baseUrl}${path}`;
const palette = () => page.getByRole('dialog', { name: LABEL });
const input = () => palette().getByRole('combobox', { name: LABEL });
const section = (name: string) => palette().getByRole('group', { name });
const pathOf = () => new URL(page.url()).pathname;

/** The option the input names as highlighted (aria-activedescendant), as its accessible text. */
async function highlighted(): Promise<string | null> {
  const id = await input().getAttribute('aria-activedescendant');
  if (!id) return null;
  const option = page.locator(`[id="${id}"]`);
  expect(await option.getAttribute('aria-selected')).toBe('true');
  return option.textContent();
}

/** Opens the palette with the shortcut from whatever page is shown, once the shell knows the enabled modules. */
async function openWithShortcut(): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).waitFor();
  await page.keyboard.press('Control+K');
  await input().waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(LABEL);
}

/** Waits until the answers for the typed text have arrived (the input's spinner is gone). */
async function settled(): Promise<void> {
  await palette().getByLabel('Searching').waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  session = await startSignedInConsole(pool);
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      pageErrors.push(message.text());
  });
  api = await signInOverApi(app.baseUrl);
  db = openDatabase(session.database.url, { poolSize: 2, applicationName: 'command-palette-browser-test' });
  for (const name of ['fleet-alpha', 'fleet-beta', 'payments-eu'])
    clusterIds[name] = await insertClusterRow(db.prisma, { name });
});

afterAll(async () => {
  await (db as Database | undefined)?.close();
  await session?.close();
});

describe('the command palette', () => {
  it('opens with Ctrl+K and goes to a screen by part of its name with Enter', async () => {
    await page.goto(url('/settings'));
    await openWithShortcut();
    // Before any text: every screen the navbar shows, and the first clusters.
    await section('Screens')
      .getByRole('option', { name: /Audit log/ })
      .waitFor();
    await section('Clusters')
      .getByRole('option', { name: /fleet-alpha/ })
      .waitFor();

    await page.keyboard.type('audi');
    await settled();
    expect(await section('Screens').getByRole('option').allTextContents()).toEqual(['Audit logActivity']);
    expect(await highlighted()).toContain('Audit log');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/audit$/);
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await palette().waitFor({ state: 'detached' });
  });

  it('goes to a cluster by part of its name, the arrows choosing between two', async () => {
    // From the audit log, where the test above left off: a retry may find the palette open, or a cluster's page.
    await page.goto(url('/audit'));
    await openWithShortcut();
    await page.keyboard.type('fleet');
    await section('Clusters')
      .getByRole('option', { name: /fleet-beta/ })
      .waitFor();
    await settled();
    expect(await section('Clusters').getByRole('option').count()).toBe(2);
    expect(await highlighted()).toContain('fleet-alpha');
    await page.keyboard.press('ArrowDown');
    expect(await highlighted()).toContain('fleet-beta');
    // Past the last option the highlight wraps to the first, and back.
    await page.keyboard.press('ArrowDown');
    expect(await highlighted()).toContain('fleet-alpha');
    await page.keyboard.press('ArrowUp');
    expect(await highlighted()).toContain('fleet-beta');
    await page.keyboard.press('Enter');
    await page.waitForURL((current) => current.pathname === `/clusters/${clusterIds['fleet-beta'] ?? ''}`);
    await page.getByRole('heading', { name: 'fleet-beta', level: 1 }).waitFor();
  });

  it('says when nothing matches, closes with Escape, and opens from the header’s Search button', async () => {
    await page.goto(url('/'));
    const button = page.getByRole('banner').getByRole('button', { name: 'Search' });
    expect(await button.getAttribute('aria-keyshortcuts')).toBe('Control+K Meta+K');
    await button.click();
    await input().waitFor();
    // Before any text: every screen, then the first clusters by name.
    await section('Clusters')
      .getByRole('option', { name: /payments-eu/ })
      .waitFor();
    await saveScreenshot(page, 'command-palette');
    await page.keyboard.type('no such thing');
    await palette().getByTestId('command-palette-empty').waitFor();
    expect(await palette().getByTestId('command-palette-empty').textContent()).toContain(
      'Nothing matches “no such thing”',
    );
    expect(await input().getAttribute('aria-activedescendant')).toBeNull();
    await page.keyboard.press('Enter');
    expect(pathOf()).toBe('/');

    await page.keyboard.press('Escape');
    await palette().waitFor({ state: 'detached' });
    expect(pathOf()).toBe('/');
    // Opened again, it starts empty.
    await page.keyboard.press('Control+K');
    expect(await input().inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await palette().waitFor({ state: 'detached' });
  });

  it('goes to a queue found by the fleet-wide queue search', async () => {
    const probe = await fetch(url('/api/v1/queues?q=invoices&pageSize=8'), { headers: api.headers });
    await probe.body?.cancel();
    expect(probe.status).toBe(200);
    // Seeded only here: the rows are this test's input, as the scrape worker leaves them.
    const clusterId = clusterIds['payments-eu'] ?? '';
    const sweptAt = new Date(Date.now() - 1_000);
    const nodeId = await insertScrapedNode(db.prisma, {
      clusterId,
      brokerNodeId: 'n1',
      brokerName: 'broker-one',
      serving: true,
      sweptAt,
    });
    await insertScrapedQueues(db.prisma, { clusterId, nodeId, scrapedAt: sweptAt }, [
      { queueName: 'invoices.eu', address: 'billing', messageCount: 42 },
    ]);

    await page.goto(url('/'));
    await openWithShortcut();
    await page.keyboard.type('invoices');
    const option = section('Queues').getByRole('option', { name: /invoices\.eu/ });
    await option.waitFor();
    expect(await option.textContent()).toContain('payments-eu');
    await settled();
    expect(await highlighted()).toContain('invoices.eu');
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (current) => current.pathname === `/clusters/${clusterIds['payments-eu'] ?? ''}/queues/invoices.eu`,
    );
  });

  it('turns a queue hit into its page’s URL, and leaves the section out when the search answers 404', async () => {
    const clusterId = clusterIds['payments-eu'] ?? '';
    let answer: 'hit' | 'missing' = 'hit';
    const asked: string[] = [];
    const searchAnswer = async (route: Route) => {
      asked.push(new URL(route.request().url()).search);
      if (answer === 'missing') {
        await route.fulfill({
          status: 404,
          contentType: 'application/problem+json',
          body: JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }),
        });
        return;
      }
      await route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          items: [
            {
              clusterId,
              clusterName: 'payments-eu',
              address: 'orders',
              queueName: 'orders/eu #1',
              routingType: 'MULTICAST',
              messageCount: 7,
            },
          ],
          total: 1,
        }),
      });
    };
    await page.route('**/api/v1/queues?*', searchAnswer);
    try {
      await page.goto(url('/'));
      await openWithShortcut();
      await page.keyboard.type('orders');
      const option = section('Queues').getByRole('option', { name: /orders\/eu #1/ });
      await option.waitFor();
      expect(await option.textContent()).toContain('payments-eu · orders · MULTICAST');
      expect(await option.textContent()).toContain('7 messages');
      // The last question is for the whole word, with the page size. How many came before it depends on how fast
      // the keys arrive against the 150 ms debounce (a busy machine may let one through per key), so it is not counted.
      // An early answer (for "or") may show the option before the last key's question has gone out.
      await expect.poll(() => asked.at(-1)).toBe('?q=orders&pageSize=8');
      expect(asked.every((search) => 'orders'.startsWith(new URLSearchParams(search).get('q') ?? '-'))).toBe(true);
      // Every section answered for the whole word: until then the Clusters section keeps its previous answer (every
      // cluster, for the empty text) and its first row, not the queue, is the highlighted option.
      await settled();
      expect(await highlighted()).toContain('orders/eu #1');
      await saveScreenshot(page, 'command-palette-queue');
      await page.keyboard.press('Enter');
      await page.waitForURL((current) => current.pathname === `/clusters/${clusterId}/queues/orders%2Feu%20%231`);

      answer = 'missing';
      await openWithShortcut();
      await page.keyboard.type('orders-gone');
      await expect.poll(() => asked.at(-1)).toBe('?q=orders-gone&pageSize=8');
      await settled();
      await palette().getByTestId('command-palette-empty').waitFor();
      expect(await section('Queues').count()).toBe(0);
      expect(await palette().getByRole('status').count()).toBe(0);
      await page.keyboard.press('Escape');
    } finally {
      await page.unroute('**/api/v1/queues?*', searchAnswer);
    }
  });

  it('raised no script errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
