// The console in a real Chromium against Flotilla started as `npm start` starts it, on a fresh database:
// navigation groups, a disabled feature's deep link (a second instance with API tokens off), table state in the
// URL, a settings round-trip with a validation error, and the audit log's filters. Screenshots of the main screens
// go to test-results/console/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import {
  BROWSER_ADMIN,
  BROWSER_ADMIN_ENV,
  launchBrowser,
  saveScreenshot,
  saveScreenshotsInBothThemes,
  signInOverApi,
  type ApiSession,
  type Browser,
  tableLoaded as waitForTable,
  layoutFit,
} from '@test/browser.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';

const pool = new AppPool();
let database: TestDatabase;
let app: AppProcess;
let browser: Browser;
let page: Page;
/** The test's own REST calls sign in separately from the browser. */
let api: ApiSession;
/** Script errors and console errors of the page, except failed requests (the refused setting is a 400 on purpose). */
const pageErrors: string[] = [];

const url = (path: string) => `${app.baseUrl}${path}`;
const pathAndQuery = () => {
  const current = new URL(page.url());
  return `${current.pathname}${current.search}`;
};

async function putSetting(key: string, value: unknown, query = ''): Promise<number> {
  const response = await fetch(url(`/api/v1/settings/${key}${query}`), {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...api.headers },
    body: JSON.stringify({ value }),
  });
  await response.body?.cancel();
  return response.status;
}

/** The table has shown an answer (not skeletons): its range line says how many rows there are. */
const tableLoaded = () => waitForTable(page);

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  app = await pool.startReady({ env: { DATABASE_URL: database.url, ...BROWSER_ADMIN_ENV } });
  api = await signInOverApi(app.baseUrl);
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      pageErrors.push(message.text());
  });
});

afterAll(async () => {
  await (browser as Browser | undefined)?.close();
  await pool.destroyAll();
  await (database as TestDatabase | undefined)?.drop();
});

describe('the console shell', () => {
  it('signs in on the sign-in page and returns to the page asked for', async () => {
    // A retry finds the browser signed in by its first attempt: the sign-in page would not be shown.
    await browser.context.clearCookies();
    await page.goto(url('/sign-in?next=%2Fsettings'));
    await page.getByLabel('Username').fill(BROWSER_ADMIN.username);
    await page.getByLabel(/^Password/).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('problem').waitFor();
    await saveScreenshot(page, 'sign-in-refused-light');

    await page.getByLabel(/^Password/).fill(BROWSER_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/settings$/);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect((await browser.context.cookies(app.baseUrl)).map((cookie) => cookie.name)).toContain('flotilla_session');
  });

  it('puts module navigation into the fixed groups and reaches screens by mouse and keyboard', async () => {
    await page.goto(url('/'));
    await page.getByRole('heading', { name: 'Welcome to Flotilla' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.locator('[data-nav-group]').first().waitFor();
    const groups = await nav
      .locator('[data-nav-group]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-nav-group')));
    // The installed modules contribute to all five groups, in their fixed order (an empty group would stay hidden).
    expect(groups).toEqual(['observe', 'messaging', 'resources', 'configuration', 'activity']);
    const group = (name: string) => nav.getByRole('group', { name });
    expect(await group('Observe').getByRole('link').allInnerTexts()).toEqual(['Triage', 'Alerts', 'Clusters']);
    expect(await group('Messaging').getByRole('link').allInnerTexts()).toEqual([
      'Queues',
      'Dead letters',
      'SQL console',
      'Routing',
      'Request-reply',
    ]);
    expect(await group('Resources').getByRole('link').allInnerTexts()).toEqual([
      'Addresses',
      'Consumers',
      'Producers',
      'Sessions',
      'Connections',
    ]);
    expect(await group('Configuration').getByRole('link').allInnerTexts()).toEqual([
      'Broker configuration',
      'Settings',
    ]);
    expect(await group('Activity').getByRole('link').allInnerTexts()).toEqual(['Audit log', 'Events']);

    await group('Configuration').getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(pathAndQuery()).toBe('/settings');
    await expect.poll(() => page.title()).toBe('Settings · Flotilla');

    // Keyboard: Tab from Settings (the last Configuration link) to Audit log shows a focus ring; Enter follows it.
    const auditLink = group('Activity').getByRole('link', { name: 'Audit log' });
    await group('Configuration').getByRole('link', { name: 'Settings' }).focus();
    await page.keyboard.press('Tab');
    expect(await auditLink.evaluate((node) => node === document.activeElement)).toBe(true);
    const outline = await auditLink.evaluate((node) => getComputedStyle(node).outlineStyle);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    expect(pathAndQuery()).toBe('/audit');
    expect(outline).not.toBe('none');

    // Admin sits below the groups and opens its first group's first tab (Access → Users); Installation → Modules and
    // Support → System jobs are tabs too.
    await nav.getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(url('/admin/access/users'));
    await page.getByRole('tab', { name: 'Modules' }).click();
    await page.getByRole('heading', { name: 'Modules', level: 1 }).waitFor();
    expect(pathAndQuery()).toBe('/admin/modules');
    await page.getByRole('tab', { name: 'System jobs' }).click();
    await page.getByRole('heading', { name: 'System jobs', level: 1 }).waitFor();
    await page.getByTestId('stream-state').and(page.locator('[data-state="connected"]')).waitFor();
  });

  it('explains a disabled feature on its deep link, naming the property that turns it on', async () => {
    // A second instance on the same database with API tokens turned off; the browser's session is valid there too.
    const off = await pool.startReady({
      env: {
        DATABASE_URL: database.url,
        ...BROWSER_ADMIN_ENV,
        FLOTILLA_INSTANCE_ID: 'browser-apitokens-off',
        FLOTILLA_FEATURES_APITOKENS_ENABLED: 'false',
        FLOTILLA_FEATURES_QUEUES_ENABLED: 'false',
        // Metrics (its panels live on the queue page), triage (which reads metrics), messages and alerting (its
        // consumer-health condition reads the queues' verdict source) need queues.
        FLOTILLA_FEATURES_METRICS_ENABLED: 'false',
        FLOTILLA_FEATURES_TRIAGE_ENABLED: 'false',
        FLOTILLA_FEATURES_MESSAGES_ENABLED: 'false',
        FLOTILLA_FEATURES_ALERTING_ENABLED: 'false',
      },
    });
    const disabled = await browser.newPage();
    try {
      await disabled.goto(`${off.baseUrl}/account/tokens`);
      const featureOff = disabled.getByTestId('feature-off');
      await featureOff.waitFor();
      expect(await featureOff.getByTestId('enabling-property').innerText()).toBe('flotilla.features.apitokens.enabled');
      expect(await featureOff.innerText()).toContain('FLOTILLA_FEATURES_APITOKENS_ENABLED=true');
      expect(await disabled.getByRole('form', { name: 'Create API token' }).count()).toBe(0);
      expect(await disabled.getByTestId('table-api-tokens').count()).toBe(0);
      const nav = disabled.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Settings' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Queues' }).count()).toBe(0);
      // The account page keeps its own sections but drops the disabled module's.
      await disabled.goto(`${off.baseUrl}/account`);
      await expect
        .poll(() => disabled.getByTestId('account-profile').innerText())
        .toMatch(new RegExp(`Username\\s+${BROWSER_ADMIN.username}`));
      expect(await disabled.getByRole('region', { name: 'API tokens' }).count()).toBe(0);
      await saveScreenshot(disabled, 'feature-off-light');

      // A feature's route below another module's path (`/clusters/{clusterId}/queues`) is explained too.
      await disabled.goto(`${off.baseUrl}/clusters/6f1c2a4e-1b2c-4d5e-8f90-0123456789ab/queues/orders`);
      await featureOff.waitFor();
      expect(await featureOff.getByTestId('enabling-property').innerText()).toBe('flotilla.features.queues.enabled');
      expect(await disabled.getByTestId('table-queues').count()).toBe(0);
    } finally {
      await disabled.close();
      await off.destroy();
    }
  });
});

describe('the shared table', () => {
  it('keeps sort, page and page size in the URL across reload and back', async () => {
    // Twelve audited dry runs (and the sign-ins) give the audit log two pages of ten. A retry adds only those its
    // first attempt did not, or the log would outgrow two pages.
    const dryRuns = await fetch(url('/api/v1/audit?action=setting.update&dryRun=true&pageSize=1'), {
      headers: api.headers,
    });
    const { total: done } = (await dryRuns.json()) as { total: number };
    for (let index = done; index < 12; index++)
      expect(await putSetting('audit.retention', `${400 + index}d`, '?dryRun=true')).toBe(200);

    // Sign-ins are audited too, so the total is read rather than assumed.
    const audit = await fetch(url('/api/v1/audit?pageSize=1'), { headers: api.headers });
    const { total } = (await audit.json()) as { total: number };
    expect(total).toBeGreaterThanOrEqual(12);
    expect(total).toBeLessThanOrEqual(20);
    const secondPage = new RegExp(`^11–${total} of ${total}$`);
    const firstPage = new RegExp(`^1–10 of ${total}$`);

    await page.goto(url('/audit'));
    await tableLoaded();
    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '10 per page' }).click();
    await page.waitForURL(/pageSize=10/);
    await page.getByRole('button', { name: 'Sort by When' }).click();
    await page.waitForURL(/sort=startedAt/);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.waitForURL(/page=2/);
    await page.getByTestId('table-range').filter({ hasText: secondPage }).waitFor();
    const viewUrl = pathAndQuery();
    expect(new URLSearchParams(viewUrl.split('?')[1])).toEqual(
      new URLSearchParams({ pageSize: '10', sort: 'startedAt', page: '2' }),
    );

    await page.reload();
    await page.getByTestId('table-range').filter({ hasText: secondPage }).waitFor();
    expect(pathAndQuery()).toBe(viewUrl);
    const when = page.getByRole('columnheader', { name: /When/ });
    expect(await when.getAttribute('aria-sort')).toBe('ascending');
    expect(await page.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(/\/settings$/);
    await page.goBack();
    await page.getByTestId('table-range').filter({ hasText: secondPage }).waitFor();
    expect(pathAndQuery()).toBe(viewUrl);

    // Back once more undoes the page change: the history has one entry per view change.
    await page.goBack();
    await page.getByTestId('table-range').filter({ hasText: firstPage }).waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();

    // Column choice is the viewer's own and survives a reload (it is not part of a shared link).
    const headers = page.getByTestId('table-audit').getByRole('columnheader');
    expect(await headers.allInnerTexts()).toContain('Target');
    try {
      await page.getByRole('button', { name: 'Columns' }).click();
      await page.getByRole('menuitem', { name: 'Target' }).click();
      await page.getByRole('menuitem', { name: 'Request id' }).click();
      await page.keyboard.press('Escape');
      await page.getByTestId('table-audit').locator('[data-column="requestId"]').first().waitFor();
      expect(await headers.allInnerTexts()).not.toContain('Target');
      await page.reload();
      await tableLoaded();
      const shown = await headers.allInnerTexts();
      expect(shown).not.toContain('Target');
      expect(shown).toContain('Request id');
      // Back to the default columns for the tests below (the profile keeps the choice).
      await page.getByRole('button', { name: 'Columns' }).click();
      await page.getByRole('menuitem', { name: 'Target' }).click();
      await page.getByRole('menuitem', { name: 'Request id' }).click();
      await page.keyboard.press('Escape');
      await page.getByTestId('table-audit').locator('[data-column="target"]').first().waitFor();
    } finally {
      // Also when a step above failed: a retry must find Target shown, and so must the tests below.
      await page.evaluate(() => localStorage.removeItem('flotilla.columns.audit'));
    }
  });
});

describe('first screens', () => {
  it('changes a setting: a refused value shows the rule inline, a valid one is saved and survives reload', async () => {
    await undoASettingSavedByAnEarlierAttempt();
    await page.goto(url('/settings'));
    const editor = page.locator('[data-setting="audit.retention"]');
    const input = editor.getByRole('textbox', { name: 'audit.retention' });
    await input.waitFor();
    expect(await input.inputValue()).toBe('365d');

    await input.fill('0s');
    await editor.getByRole('button', { name: 'Save' }).click();
    const error = editor.getByText(/^must be /);
    await error.waitFor();
    expect(await error.innerText()).toMatch(/^must be a duration from 1d to \d+d/);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await saveScreenshot(page, 'settings-validation-error-light');

    await input.fill('400d');
    expect(await error.count()).toBe(0); // editing clears the old error
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.getByTestId('saved').waitFor();

    await page.reload();
    await input.waitFor();
    expect(await input.inputValue()).toBe('400d');
    await editor.getByText('set in database').waitFor();
    const stored = (await (await fetch(url('/api/v1/settings/audit.retention'), { headers: api.headers })).json()) as {
      value: string;
    };
    expect(stored.value).toBe('400d');
  });

  it('filters the audit log, with the filters kept in the URL', async () => {
    await page.goto(url('/audit'));
    await tableLoaded();
    await page.getByLabel('Action', { exact: true }).fill('setting.update');
    await page.waitForURL(/action=setting.update/);
    await page.getByRole('combobox', { name: 'Dry runs' }).click();
    await page.getByRole('option', { name: 'no dry runs' }).click();
    await page.waitForURL(/dryRun=false/);
    await page
      .getByTestId('table-range')
      .filter({ hasText: /^1–1 of 1$/ })
      .waitFor();
    const row = page.getByTestId('table-audit').locator('tbody tr');
    expect(await row.count()).toBe(1);
    expect(await row.locator('[data-column="target"]').innerText()).toBe('audit.retention');
    expect(await row.locator('[data-column="outcome"]').textContent()).toBe('succeeded');
    // A setting change reads as old → new.
    expect(await row.locator('[data-column="change"]').innerText()).toMatch(/^\d+d → 400d$/);

    await page.reload();
    await page
      .getByTestId('table-range')
      .filter({ hasText: /^1–1 of 1$/ })
      .waitFor();
    expect(await page.getByLabel('Action', { exact: true }).inputValue()).toBe('setting.update');

    await page.getByRole('combobox', { name: 'Outcome' }).click();
    await page.getByRole('option', { name: 'failed' }).click();
    await page.waitForURL(/outcome=FAILED/);
    const empty = page.getByTestId('empty-state');
    await empty.waitFor();
    // Not "nothing here yet": the filter hides rows, and the way back is offered.
    expect(await empty.getAttribute('data-empty')).toBe('filtered');
    expect(await empty.innerText()).toContain('Nothing matches your filter');
    await empty.getByRole('button', { name: 'Clear search and filters' }).click();
    await page
      .getByTestId('table-range')
      .filter({ hasText: /of \d+$/ })
      .waitFor();
    expect(page.url()).not.toContain('outcome=');
  });

  it('shows denials, one row per repeated refusal with its count, under the Outcome filter', async () => {
    // The same name again is a 409; a retry finds the environment its first attempt made, and refuses it alike.
    for (let index = 0; index < 4; index++) {
      const response = await fetch(url('/api/v1/environments'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...api.headers },
        body: JSON.stringify({ name: 'denied-twice' }),
      });
      await response.body?.cancel();
      expect([200, 409]).toContain(response.status);
    }
    await page.goto(url('/audit'));
    await tableLoaded();
    await page.getByRole('combobox', { name: 'Outcome' }).click();
    await page.getByRole('option', { name: 'denied' }).click();
    await page.waitForURL(/outcome=DENIED/);
    const row = page.getByTestId('table-audit').locator('tbody tr', { hasText: 'environments.create' });
    await row.first().waitFor();
    // One row per 15-minute window: a run across a window's end has two.
    const counts = await row
      .locator('[data-column="outcome"]')
      .allTextContents()
      .then((texts) => texts.map((text) => Number(/^denied ×(\d+)$/.exec(text)?.[1] ?? (text === 'denied' ? 1 : NaN))));
    expect(counts.length).toBeLessThanOrEqual(2);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(3);
    expect(await row.first().locator('[data-column="error"]').innerText()).toBe('environment-name-taken');
    await page.reload();
    await row.first().waitFor();
    expect(await page.getByRole('combobox', { name: 'Outcome' }).inputValue()).toBe('denied');
  });

  it('resets a setting changed in the database to its default, in one press', async () => {
    // A retry finds the default its first attempt restored: the value the test above saved, stored again.
    const stored = (await (await fetch(url('/api/v1/settings/audit.retention'), { headers: api.headers })).json()) as {
      value: string;
    };
    if (stored.value !== '400d') expect(await putSetting('audit.retention', '400d')).toBe(200);
    await page.goto(url('/settings'));
    const editor = page.locator('[data-setting="audit.retention"]');
    const input = editor.getByRole('textbox', { name: 'audit.retention' });
    await input.waitFor();
    expect(await input.inputValue()).toBe('400d');
    await editor.getByRole('button', { name: 'Reset to default' }).click();
    await editor.getByText(/^default$/).waitFor();
    expect(await input.inputValue()).toBe('365d');
    expect(await editor.getByRole('button', { name: 'Reset to default' }).count()).toBe(0);
  });
  it('lists the modules and the jobs, and saves screenshots of the main screens in both themes', async () => {
    await page.goto(url('/admin/modules'));
    await tableLoaded();
    const modules = page.getByTestId('table-modules');
    for (const id of ['core', 'plugin', 'settings', 'audit', 'jobs', 'stream'])
      await modules.locator(`tr[data-row-key="${id}"]`).waitFor();
    expect(await modules.locator('tr[data-row-key="audit"] [data-column="enabled"]').textContent()).toBe('on');

    await page.goto(url('/admin/jobs'));
    await tableLoaded();
    const job = page.getByTestId('table-jobs').locator('tr[data-row-key="audit.retention"]');
    await job.waitFor();
    expect(await job.locator('[data-status]').getAttribute('data-status')).toMatch(/^(OK|WAITING)$/);

    // The theme button overrides the system's scheme, and the choice survives a reload.
    const scheme = () => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
    expect(await scheme()).toBe('light');
    try {
      const toggle = page.getByRole('button', { name: 'Switch between light and dark theme' });
      // One icon at a time: the moon in light, the sun in dark.
      expect(await toggle.locator('svg:visible').count()).toBe(1);
      await toggle.click();
      expect(await scheme()).toBe('dark');
      expect(await toggle.locator('svg:visible').count()).toBe(1);
      await page.reload();
      await toggle.waitFor();
      expect(await scheme()).toBe('dark');
      await toggle.click();
      expect(await scheme()).toBe('light');
      // Back to following the system, so the screenshots below can emulate each scheme.
      await page.evaluate(() => localStorage.removeItem('mantine-color-scheme-value'));

      const screens: [string, string, () => Promise<void>][] = [
        ['home', '/', () => page.getByRole('heading', { name: 'Welcome to Flotilla' }).waitFor()],
        ['settings', '/settings', () => page.locator('[data-setting="audit.retention"]').waitFor()],
        ['audit', '/audit', tableLoaded],
        ['modules', '/admin/modules', tableLoaded],
        ['jobs', '/admin/jobs', tableLoaded],
        ['sign-in', '/sign-in', () => page.getByRole('button', { name: 'Sign in' }).waitFor()],
      ];
      for (const [name, path, ready] of screens) {
        await page.goto(url(path));
        await saveScreenshotsInBothThemes(page, name, ready);
      }
    } finally {
      // Also when a step above failed: a retry (and the tests below) must find the system's light scheme followed.
      await page.evaluate(() => localStorage.removeItem('mantine-color-scheme-value'));
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });
});

/**
 * A retry finds the value its first attempt saved, and that attempt's change in the audit log: the setting back to its
 * default and the change taken out of the log, since the audit filter test below finds exactly one.
 */
async function undoASettingSavedByAnEarlierAttempt(): Promise<void> {
  const stored = (await (await fetch(url('/api/v1/settings/audit.retention'), { headers: api.headers })).json()) as {
    value: string;
  };
  if (stored.value === '365d') return;
  const reset = await fetch(url('/api/v1/settings/audit.retention'), { method: 'DELETE', headers: api.headers });
  await reset.body?.cancel();
  expect(reset.status).toBe(200);
  await queryDatabase(
    database.url,
    `DELETE FROM audit_event WHERE action = 'setting.update' AND target = 'audit.retention' AND NOT dry_run`,
  );
}

describe('job health on the System jobs screen', () => {
  it('marks a job DEGRADED once it has not completed for more than three of its intervals', async () => {
    // The worker writes a status row when it schedules a job; age it the way a stalled worker would leave it.
    // (The deep-link check above ran a second instance on this database: only this instance's row counts.)
    const { instanceId } = (await (await page.request.get(url('/actuator/health/flotilla'))).json()) as {
      instanceId: string;
    };
    const age = async () => {
      const rows = await queryDatabase<{ job_id: string }>(
        database.url,
        `UPDATE job_status
            SET scheduled_since = now() - make_interval(secs => interval_ms * 4 / 1000.0),
                last_completed_at = CASE WHEN last_completed_at IS NULL THEN NULL
                                         ELSE now() - make_interval(secs => interval_ms * 4 / 1000.0) END
          WHERE job_id = 'audit.retention' AND instance_id = $1 RETURNING job_id`,
        [instanceId],
      );
      return rows.length === 1;
    };
    const deadline = Date.now() + 30_000;
    while (!(await age())) {
      if (Date.now() > deadline) throw new Error('the worker wrote no status row for audit.retention');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await page.goto(url('/admin/jobs'));
    await tableLoaded();
    const status = page.getByTestId('table-jobs').locator('tr[data-row-key="audit.retention"] [data-status]');
    expect(await status.getAttribute('data-status')).toBe('DEGRADED');
    expect(await status.innerText()).toMatch(/degraded/i);
    const health = (await (await page.request.get(url('/actuator/health/flotilla'))).json()) as {
      components: { jobs: { status: string; details: { degraded: string[] } } };
    };
    expect(health.components.jobs).toMatchObject({ status: 'DEGRADED', details: { degraded: ['audit.retention'] } });
  });
});

describe('laptop widths', () => {
  it.each([
    [1366, 768],
    [1024, 700],
  ])('fit the main screens into %i×%i without sideways scrolling', async (width, height) => {
    await page.setViewportSize({ width, height });
    try {
      const screens: [string, string, () => Promise<void>][] = [
        ['home', '/', () => page.getByRole('heading', { level: 1 }).first().waitFor()],
        ['settings', '/settings', () => page.locator('[data-setting="audit.retention"]').waitFor()],
        ['audit', '/audit', tableLoaded],
        ['jobs', '/admin/jobs', tableLoaded],
      ];
      for (const [name, path, ready] of screens) {
        await page.goto(url(path));
        await ready();
        const { overflow, cutBadges } = await layoutFit(page);
        expect(overflow, `${name} at ${width}px scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
        // Status badges (outcome, job status, stale) must show their whole word, not "DE…".
        expect(cutBadges, `${name} at ${width}px cuts badges`).toEqual([]);
        await saveScreenshot(page, `${name}-${width}`);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('puts the navigation away at 1024 px to give a table the whole width, and remembers it', async () => {
    await page.setViewportSize({ width: 1024, height: 700 });
    try {
      await page.goto(url('/audit'));
      await tableLoaded();
      const navbar = page.locator('.mantine-AppShell-navbar');
      const tableWidth = () => page.getByTestId('table-audit').evaluate((table) => table.getBoundingClientRect().width);
      await page.getByRole('button', { name: 'Hide navigation' }).click();
      await expect
        .poll(() => navbar.evaluate((element) => element.getBoundingClientRect().right))
        .toBeLessThanOrEqual(0);
      // The table's frame now takes the whole width but the page padding.
      await expect.poll(tableWidth).toBeGreaterThanOrEqual(1024 - 60);
      expect((await layoutFit(page)).overflow).toBeLessThanOrEqual(0);

      await page.reload();
      await tableLoaded();
      await page.getByRole('button', { name: 'Show navigation' }).click();
      await expect.poll(() => navbar.evaluate((element) => element.getBoundingClientRect().right)).toBe(240);
    } finally {
      // A retry must find the navigation shown (the choice is remembered), also when a step above failed.
      await page.evaluate(() => localStorage.removeItem('flotilla.navbar.hidden'));
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});

describe('the page itself', () => {
  it('logged no script errors (hydration mismatches and content-security-policy refusals included) on any screen above', () => {
    expect(pageErrors).toEqual([]);
  });

  it('is served under a content security policy that forbids framing', async () => {
    const response = await page.request.get(url('/settings'));
    expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers()['x-frame-options']).toBe('DENY');
  });
});
