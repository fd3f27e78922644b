// Broker load of watching one queue list (issue 34, item 6): the management requests per minute that reach one real
// Artemis broker (2.44.0, Artemis's own JVM profile, QUEUES queues) with 1, 5 and 20 viewers of the same queue list,
// (a) in the broker's own web console (the hawtio-based Artemis console, web/console.war) and (b) in Flotilla started as
// `npm start` runs it, with the broker registered. Each side reaches the broker's web port through its own counting
// proxy (test/support/counting-proxy.ts), which counts the Jolokia POSTs and the operations inside each bulk POST.
//   (a) one headless Chromium, a browser context (its own session) per viewer: the console opened through the proxy,
//       its login form filled with the broker's user (admin/admin), then Artemis → the Queues tab;
//   (b) Flotilla on a fresh database, the broker registered with the proxy's URL as its management URL, one viewer
//       user a context, signed in, on /clusters/{id}/queues (the queue grid).
// Viewers are added up to each count; after SETTLE seconds (their opening burst over), the proxy's count is taken for
// WINDOW seconds and printed per minute, with the load average at the window's start and end, the operations most
// asked for, and the Jolokia requests the browsers themselves sent (GETs included, which the proxy does not count).
// The console side runs first, then Flotilla: one side at a time at the broker's door.
//   npm run bench:console
//     CONSOLE_BENCH_WINDOW_SECONDS (60), CONSOLE_BENCH_SETTLE_SECONDS (30), CONSOLE_BENCH_VIEWERS (1,5,20),
//     CONSOLE_BENCH_QUEUES (200), CONSOLE_BENCH_SIDES (console,flotilla); PostgreSQL: FLOTILLA_TEST_ADMIN_URL
import { existsSync } from 'node:fs';
import os from 'node:os';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startSingleNode, type BrokerNode } from '@test/artemis/index.ts';
import { AppProcess, freePort } from '@test/app-process.ts';
import { CHROMIUM_ARGS, saveScreenshot, signInOverApi, tableLoaded } from '@test/browser.ts';
import { registerSingleNodeCluster, waitForQueueScraped } from '@test/browser-cluster.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { signIn } from '@test/sign-in.ts';
import { buildIfNeeded } from '../src/server/process/build.ts';
import { createAnycastQueues, createBenchDatabase, usersWithRole } from './bench-support.ts';
import { reportFigure } from './report.ts';

const WINDOW_SECONDS = Number(process.env.CONSOLE_BENCH_WINDOW_SECONDS ?? '60');
const SETTLE_SECONDS = Number(process.env.CONSOLE_BENCH_SETTLE_SECONDS ?? '30');
const VIEWER_COUNTS = (process.env.CONSOLE_BENCH_VIEWERS ?? '1,5,20').split(',').map(Number);
const QUEUES = Number(process.env.CONSOLE_BENCH_QUEUES ?? '200');
const SIDES = (process.env.CONSOLE_BENCH_SIDES ?? 'console,flotilla').split(',');
/** Viewers opened at once after the first (a page load of either console is the heavy part on two cores). */
const OPEN_AT_ONCE = 5;
// The full browser, as a viewer runs it (the tests use the lighter headless shell, ADR 38).
const CHROMIUM = '/usr/bin/chromium';

const queueName = (index: number) => `viewers.q${String(index).padStart(3, '0')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadNow = () => os.loadavg()[0] ?? NaN;

if (
  VIEWER_COUNTS.some((count, index) => !Number.isInteger(count) || count < 0 || count < (VIEWER_COUNTS[index - 1] ?? 0))
)
  throw new Error(`CONSOLE_BENCH_VIEWERS must be rising whole numbers, e.g. 1,5,20 (got ${VIEWER_COUNTS.join(',')})`);

/** What one window saw at the broker's door, per minute, and the machine's 1-minute load at its start and end. */
interface Window {
  readonly viewers: number;
  readonly postsPerMinute: number;
  readonly operationsPerMinute: number;
  readonly loadStart: number;
  readonly loadEnd: number;
  /** The operations most asked for in the window, `name ×count`. */
  readonly top: string;
  /** Jolokia requests the viewers' browsers sent in the window, by method (a cross-check of the proxy's count). */
  readonly browserSent: string;
}

/** A viewer's browser context and page, with the Jolokia requests its page sent and its page errors. */
interface Viewer {
  readonly context: BrowserContext;
  readonly page: Page;
}

/** Jolokia requests the browsers sent, by method, since the last reset (all viewers of a side together). */
class BrowserJolokiaCount {
  private readonly byMethod = new Map<string, number>();
  /** Requests a page sent straight to the broker's port, past the proxy (aborted: they must not happen). */
  bypassed = 0;
  readonly pageErrors: string[] = [];

  watch(page: Page): void {
    page.on('request', (request) => {
      if (!request.url().includes('/jolokia')) return;
      this.byMethod.set(request.method(), (this.byMethod.get(request.method()) ?? 0) + 1);
    });
    page.on('pageerror', (error) => this.pageErrors.push(error.message));
  }

  reset(): void {
    this.byMethod.clear();
  }

  summary(): string {
    const entries = [...this.byMethod.entries()].map(([method, count]) => `${method} ${String(count)}`);
    return entries.length > 0 ? entries.join(', ') : 'none';
  }
}

/** Counts at the proxy for WINDOW_SECONDS, after the viewers settled. */
async function measure(proxy: CountingProxy, viewers: number, sent: BrowserJolokiaCount): Promise<Window> {
  await sleep(SETTLE_SECONDS * 1000);
  const loadStart = loadNow();
  proxy.reset();
  sent.reset();
  await sleep(WINDOW_SECONDS * 1000);
  const posts = [...proxy.posts];
  const browserSent = sent.summary();
  const loadEnd = loadNow();
  const operations = posts.flatMap((post) => post.operations);
  const byName = new Map<string, number>();
  for (const operation of operations) {
    const name = operation.replace(/\(.*$/, '');
    byName.set(name, (byName.get(name) ?? 0) + 1);
  }
  const top = [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([name, count]) => `${name} ×${String(count)}`)
    .join(', ');
  const perMinute = (count: number) => (count * 60) / WINDOW_SECONDS;
  return {
    viewers,
    postsPerMinute: perMinute(posts.length),
    operationsPerMinute: perMinute(operations.length),
    loadStart,
    loadEnd,
    top: top || 'none',
    browserSent,
  };
}

function printWindow(side: string, window: Window): void {
  console.log(
    `${side}, ${String(window.viewers)} viewer(s): ${window.postsPerMinute.toFixed(1)} POSTs/min, ${window.operationsPerMinute.toFixed(1)} operations/min at the broker (load ${window.loadStart.toFixed(1)} → ${window.loadEnd.toFixed(1)}); operations: ${window.top}; the browsers sent to Jolokia: ${window.browserSent}`,
  );
}

/** New contexts whose requests straight to the broker's web port are aborted and counted. */
async function newViewerContext(browser: Browser, brokerPort: number, sent: BrowserJolokiaCount) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(60_000);
  await context.route(new RegExp(`^https?://(127\\.0\\.0\\.1|localhost):${String(brokerPort)}/`), async (route) => {
    sent.bypassed++;
    await route.abort();
  });
  return context;
}

/**
 * The Artemis console through the proxy, signed in with the broker's user, on Artemis → Queues. The first viewer signs
 * in through the login form; the others post the same JSON to the endpoint the form posts to (hawtio's auth/login),
 * which spares a loaded machine two page loads each (after the form, hawtio-next reloads the page and shows /).
 */
async function openConsoleViewer(
  browser: Browser,
  node: BrokerNode,
  consoleUrl: string,
  sent: BrowserJolokiaCount,
  throughForm: boolean,
): Promise<Viewer> {
  const context = await newViewerContext(browser, node.managementPort, sent);
  const page = await context.newPage();
  sent.watch(page);
  try {
    if (throughForm) {
      await page.goto(`${consoleUrl}/artemis`);
      const username = page.locator('#pf-login-username-id');
      await username.waitFor();
      await username.fill(node.user);
      await page.locator('#pf-login-password-id').fill(node.password);
      const reloaded = page.waitForEvent('load');
      await page.getByRole('button', { name: 'Log in' }).click();
      await reloaded;
    } else {
      const response = await context.request.post(`${consoleUrl}/auth/login`, {
        data: { username: node.user, password: node.password },
      });
      if (!response.ok()) throw new Error(`console login: ${String(response.status())} ${await response.text()}`);
    }
    await page.goto(`${consoleUrl}/artemis`);
    await page.getByRole('tab', { name: 'Queues' }).click();
    await page
      .getByText(/^viewers\.q\d{3}$/)
      .first()
      .waitFor();
  } catch (error) {
    const file = await saveScreenshot(page, 'console-bench-artemis-console').catch(() => 'no screenshot');
    throw new Error(`the Artemis console did not show its queue list at ${page.url()} (${file})`, { cause: error });
  }
  return { context, page };
}

/** Flotilla's queue grid of the cluster, signed in as one viewer. */
async function openFlotillaViewer(
  browser: Browser,
  node: BrokerNode,
  baseUrl: string,
  gridPath: string,
  credentials: { username: string; password: string },
  sent: BrowserJolokiaCount,
): Promise<Viewer> {
  const context = await newViewerContext(browser, node.managementPort, sent);
  const headers = await signIn((request) => fetch(request), baseUrl, credentials);
  await context.addCookies(
    headers.cookie.split('; ').map((pair) => ({
      name: pair.slice(0, pair.indexOf('=')),
      value: pair.slice(pair.indexOf('=') + 1),
      url: baseUrl,
    })),
  );
  const page = await context.newPage();
  sent.watch(page);
  await page.goto(`${baseUrl}${gridPath}`);
  await tableLoaded(page);
  return { context, page };
}

/** Adds viewers up to each count and measures each; the viewers are closed after. */
async function measureSide(
  side: string,
  proxy: CountingProxy,
  sent: BrowserJolokiaCount,
  open: (index: number) => Promise<Viewer>,
  onWindow: (window: Window) => void,
): Promise<Window[]> {
  const viewers: Viewer[] = [];
  const windows: Window[] = [];
  try {
    for (const count of VIEWER_COUNTS) {
      const started = performance.now();
      // The first alone, then up to OPEN_AT_ONCE at a time.
      if (viewers.length === 0 && count > 0) viewers.push(await open(0));
      while (viewers.length < count) {
        const from = viewers.length;
        const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, count - from) }, (_, offset) => from + offset);
        viewers.push(...(await Promise.all(batch.map((index) => open(index)))));
      }
      console.log(
        `${side}: ${String(count)} viewer(s) open (${((performance.now() - started) / 1000).toFixed(0)} s to open the new ones); settling ${String(SETTLE_SECONDS)} s, then counting ${String(WINDOW_SECONDS)} s`,
      );
      const window = await measure(proxy, count, sent);
      printWindow(side, window);
      onWindow(window);
      windows.push(window);
    }
  } finally {
    await Promise.all(viewers.map((viewer) => viewer.context.close().catch(() => undefined)));
  }
  if (sent.bypassed > 0) throw new Error(`${side}: ${String(sent.bypassed)} requests went straight to the broker`);
  if (sent.pageErrors.length > 0)
    console.log(`${side}: ${String(sent.pageErrors.length)} page errors, the first: ${sent.pageErrors[0] ?? ''}`);
  return windows;
}

async function consoleSide(browser: Browser, node: BrokerNode): Promise<Window[]> {
  const proxy = await startCountingProxy(node.managementUrl);
  try {
    const consoleUrl = new URL('/console', proxy.url).toString();
    console.log(`the Artemis console through the proxy: ${consoleUrl}`);
    const sent = new BrowserJolokiaCount();
    return await measureSide(
      'Artemis console',
      proxy,
      sent,
      (index) => openConsoleViewer(browser, node, consoleUrl, sent, index === 0),
      (window) =>
        reportFigure({
          id: `console.artemis-${String(window.viewers)}`,
          figure: `${String(window.viewers)} viewer(s) of the Artemis 2.44.0 console's Queues tab (hawtio) in Chromium: management requests at the broker (${String(QUEUES)} queues), counted at its door over ${String(WINDOW_SECONDS)} s; 1-minute load at the window's start`,
          target: '—',
          seen: rate(window),
        }),
    );
  } finally {
    await proxy.close();
  }
}

async function flotillaSide(browser: Browser, node: BrokerNode, consoleWindows: readonly Window[]): Promise<Window[]> {
  const proxy = await startCountingProxy(node.managementUrl);
  const database = await createBenchDatabase();
  let app: AppProcess | undefined;
  try {
    app = AppProcess.start({ port: await freePort(), env: { DATABASE_URL: database.url } });
    await app.waitUntilReady();
    const baseUrl = app.baseUrl;
    const api = await signInOverApi(baseUrl);
    const clusterId = await registerSingleNodeCluster(
      baseUrl,
      api,
      // The node as Flotilla sees it: its management URL the proxy's.
      Object.assign(Object.create(node) as BrokerNode, { managementUrl: proxy.url }),
      'console-bench',
    );
    await waitForQueueScraped(baseUrl, api, clusterId, queueName(QUEUES - 1));
    const users = await usersWithRole(baseUrl, api.headers, 'viewer', Math.max(0, ...VIEWER_COUNTS), (index) => {
      return `Console-bench viewer ${String(index)} pass`;
    });
    console.log(`Flotilla: ${String(QUEUES)} queues scraped through the proxy, ${String(users.length)} viewer users`);
    const sent = new BrowserJolokiaCount();
    const gridPath = `/clusters/${clusterId}/queues`;
    return await measureSide(
      'Flotilla',
      proxy,
      sent,
      (index) => {
        const user = users[index];
        if (!user) throw new Error(`no viewer user ${String(index)}`);
        return openFlotillaViewer(browser, node, baseUrl, gridPath, user, sent);
      },
      (window) => {
        const artemis = consoleWindows.find((other) => other.viewers === window.viewers);
        reportFigure({
          id: `console.flotilla-${String(window.viewers)}`,
          figure: `${String(window.viewers)} viewer(s) of Flotilla's queue grid (npm start) in Chromium, the same broker registered: management requests at the broker, counted at its door over ${String(WINDOW_SECONDS)} s; 1-minute load at the window's start`,
          target: '—',
          seen: `${rate(window)}${artemis ? `; the console's at ${String(window.viewers)}: ${artemis.postsPerMinute.toFixed(1)} POSTs/min` : ''}`,
        });
      },
    );
  } finally {
    await app?.destroy();
    await database.drop();
    await proxy.close();
  }
}

const rate = (window: Window) =>
  `${window.postsPerMinute.toFixed(1)} POSTs/min, ${window.operationsPerMinute.toFixed(1)} operations/min (load ${window.loadStart.toFixed(1)})`;

function reportFlat(flotillaWindows: readonly Window[]): void {
  // Flotilla's count is its background work's (the scrape's tiers, the SQL capture reconciler's inventory): the same
  // whatever the number of viewers. A tier-C sweep (every 5 min) falls in some windows and not others, so two POSTs a
  // minute either way are allowed.
  if (flotillaWindows.length > 1) {
    const rates = flotillaWindows.map((window) => window.postsPerMinute);
    const spread = Math.max(...rates) - Math.min(...rates);
    reportFigure({
      id: 'console.flotilla-flat',
      figure: `Flotilla's management POSTs/min at the broker with ${flotillaWindows.map((window) => String(window.viewers)).join(', ')} viewers of the queue list`,
      target: 'the same for every viewer count (its background work’s; ± 2/min)',
      seen: `${rates.map((value) => value.toFixed(1)).join(', ')} POSTs/min`,
      holds: spread <= 2,
    });
  }
}

if (SIDES.includes('flotilla')) buildIfNeeded(process.cwd());
if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package first`);
console.log(
  `machine: ${String(os.availableParallelism())} cores, load ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(
      ' ',
    )}; viewers ${VIEWER_COUNTS.join(', ')}, settle ${String(SETTLE_SECONDS)} s, window ${String(WINDOW_SECONDS)} s`,
);
const broker = await startSingleNode({ maxHeap: '1G' });
const node = broker.nodes[0] as BrokerNode;
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
try {
  await createAnycastQueues(
    node,
    Array.from({ length: QUEUES }, (_, index) => queueName(index)),
  );
  console.log(`broker ${node.name}: ${String(QUEUES)} queues; web port ${String(node.managementPort)}`);
  const consoleWindows = SIDES.includes('console') ? await consoleSide(browser, node) : [];
  const flotillaWindows = SIDES.includes('flotilla') ? await flotillaSide(browser, node, consoleWindows) : [];
  reportFlat(flotillaWindows);
} finally {
  await browser.close();
  await broker.stop();
}
