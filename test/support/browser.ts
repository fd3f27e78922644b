// Playwright (playwright-core) driving Debian's Chromium: npm's browser download does not work on these machines,
// so the test setup installs the distribution's package when it is missing. Each launch gets a fresh profile.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { parseLogLines, type AppPool, type AppProcess, type LogLine } from './app-process.ts';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { eventually } from './eventually.ts';
import type { SharedConsoleAddress } from './shared-console-global-setup.ts';
import { signIn, TEST_ADMIN, TEST_ADMIN_ENV } from './sign-in.ts';

// Chromium's headless shell (Debian's chromium-headless-shell, the same Blink and V8 as /usr/bin/chromium): what
// Playwright itself runs headless tests in, and a quarter less CPU than the full browser's headless mode (ADR 38).
// The binary itself, not /usr/bin's wrapper script, so Playwright's signals reach Chromium.
const CHROMIUM = '/usr/lib/chromium/chromium-headless-shell';
const CHROMIUM_PACKAGE = 'chromium-headless-shell';
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/console');

/** Chromium's flags for the tests (and the benches that drive it). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Installs Debian's Chromium headless shell when it is missing (as root, or through passwordless sudo). */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  console.log(`[tests] ${CHROMIUM} is missing; installing ${CHROMIUM_PACKAGE} with apt-get`);
  const sudo = process.getuid?.() === 0 ? '' : 'sudo -n ';
  execSync(`${sudo}apt-get update && ${sudo}apt-get install -y ${CHROMIUM_PACKAGE}`, { stdio: 'inherit' });
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get did not install ${CHROMIUM}`);
}

export interface Browser {
  readonly context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    // A laptop screen; the console must read well at 1280 px.
    viewport: { width: 1280, height: 800 },
    timezoneId: 'Europe/Berlin',
  });
  context.setDefaultTimeout(15_000);
  return {
    context,
    newPage: () => context.newPage(),
    close: async () => {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as test-results/console/<name>.png (not committed). */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Screenshots in both themes: the console follows the system's colour scheme until the viewer picks one. */
export async function saveScreenshotsInBothThemes(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.reload();
    await ready();
    await saveScreenshot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The first admin of every browser-test app (a fresh database creates it from these variables). */
// Browser tests sign in as the same first admin every test app starts with (test/support/sign-in.ts).
export const BROWSER_ADMIN = TEST_ADMIN;
export const BROWSER_ADMIN_ENV = TEST_ADMIN_ENV;

export interface ApiSession {
  /** Cookie and X-CSRF-Token headers for the test's own REST calls. */
  readonly headers: Record<string, string>;
  readonly cookies: readonly { name: string; value: string }[];
}

/** Signs in over REST as the console does, for the test's own API calls (and, with addSessionCookies, a browser). */
export async function signInOverApi(baseUrl: string): Promise<ApiSession> {
  const headers = await signIn((request) => fetch(request), baseUrl, BROWSER_ADMIN);
  const cookies = headers.cookie
    .split('; ')
    .map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1) }));
  return { cookies, headers };
}

async function addSessionCookies(context: BrowserContext, baseUrl: string, session: ApiSession): Promise<void> {
  await context.addCookies(session.cookies.map((cookie) => ({ ...cookie, url: baseUrl })));
}

/** A fresh Chromium whose first page is signed in to the console at `baseUrl` as the first admin. */
async function signedInPage(baseUrl: string): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  await addSessionCookies(browser.context, baseUrl, await signInOverApi(baseUrl));
  return { browser, page: await browser.newPage() };
}

export interface SignedInConsole {
  readonly app: AppProcess;
  readonly database: TestDatabase;
  readonly browser: Browser;
  readonly page: Page;
  close(): Promise<void>;
}

/** Flotilla started as `npm start` does on a fresh database, and a browser page already signed in to it. */
export async function startSignedInConsole(pool: AppPool): Promise<SignedInConsole> {
  // Already migrated (a copy of the run's template): the e2e smoke test proves the app migrates an empty one.
  const database = await createTestDatabase();
  const app = await pool.startReady({ env: { DATABASE_URL: database.url, ...BROWSER_ADMIN_ENV } });
  const { browser, page } = await signedInPage(app.baseUrl);
  return {
    app,
    database,
    browser,
    page,
    close: async () => {
      await browser.close();
      await pool.destroyAll();
      await database.drop();
    },
  };
}

/** What a test file of the shared console may use of it: its address and, for seeding rows, its database. */
export interface SharedConsole {
  /** Its address, and its log lines so far (all files', for a diagnosis). */
  readonly app: { readonly baseUrl: string; logLines(): LogLine[] };
  readonly database: { readonly url: string };
  readonly browser: Browser;
  readonly page: Page;
  /** Closes this file's browser; the console goes on for the other files. */
  close(): Promise<void>;
}

/**
 * The run's shared Flotilla (shared-console-global-setup.ts, ADR 37) and a browser page signed in to it as the first
 * admin. Other files use it at the same time: name what you make after your file, assert only on it, and remove the
 * clusters you registered when you are done.
 */
export async function openSharedConsole(): Promise<SharedConsole> {
  const folder = inject('sharedConsoleDir');
  writeFileSync(path.join(folder, 'wanted'), '');
  const read = (name: string) =>
    existsSync(path.join(folder, name)) ? readFileSync(path.join(folder, name), 'utf8') : '';
  // The build, then the app's start: minutes on a loaded two-core machine.
  const answer = await eventually(
    'the shared console (started when the first file asks)',
    () => read('failed') || read('ready') || undefined,
    300_000,
    250,
  );
  if (read('failed')) throw new Error(read('failed'));
  const address = JSON.parse(answer) as SharedConsoleAddress;
  const { browser, page } = await signedInPage(address.baseUrl);
  return {
    app: {
      baseUrl: address.baseUrl,
      logLines: () => parseLogLines(readFileSync(address.outputFile, 'utf8').split('\n').slice(0, -1)),
    },
    database: { url: address.databaseUrl },
    browser,
    page,
    close: () => browser.close(),
  };
}

/**
 * A per-cluster screen reached from its home (ClusterChoice) as on a console with several clusters, the shared one: the
 * cluster picked from the list, or opened at once when it is the only one left (clusters.browser asserts that part).
 */
export async function pickClusterFrom(
  page: Page,
  homeUrl: string,
  clusterName: string,
  clusterUrl: string,
): Promise<void> {
  await page.goto(homeUrl);
  const link = page.getByRole('list', { name: 'Clusters' }).getByRole('link', { name: clusterName, exact: true });
  await Promise.race([page.waitForURL(clusterUrl), link.click().catch(() => undefined)]);
  await page.waitForURL(clusterUrl);
}

/** Waits until the page's shared table says how many rows it shows (loaded, whether empty or not). */
export async function tableLoaded(page: Page): Promise<void> {
  await page
    .getByTestId('table-range')
    .filter({ hasText: /of \d+|No rows/ })
    .waitFor();
}

/** How a page fits its viewport: sideways scroll in pixels, and status badges whose word is cut ("DE…"). */
export async function layoutFit(page: Page): Promise<{ overflow: number; cutBadges: (string | null)[] }> {
  return page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    cutBadges: [...document.querySelectorAll('.mantine-Badge-label')]
      .filter((label) => label.scrollWidth > label.clientWidth + 1)
      .map((label) => label.textContent),
  }));
}

/**
 * Presses a press-and-hold button (its hold confirms after 1.5 s) and keeps it pressed until `until` reaches `state`:
 * shown (an outcome) or detached (the row the action removed).
 */
export async function pressAndHold(
  button: Locator,
  until: Locator,
  state: 'visible' | 'detached' = 'visible',
): Promise<void> {
  const box = await button.boundingBox();
  if (!box) throw new Error('the hold button is not visible');
  const mouse = button.page().mouse;
  await mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await mouse.down();
  try {
    await until.waitFor({ state, timeout: 15_000 });
  } finally {
    await mouse.up();
  }
}
