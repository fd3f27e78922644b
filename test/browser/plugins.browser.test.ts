// Runtime plugins in a real Chromium (issue 33): Admin → Plugins uploads the sample archive (examples/plugins,
// packed as `npm run plugin:pack` packs it), activates it through its plan and the password typed again, and shows it
// running here; the queue page then shows the sample's panel with its verdict, loaded from the plugin's UI bundle. A
// hostile archive is refused with every finding listed. A second plugin whose panel throws in render shows the error
// boundary's message while the rest of the queue page works. The sample's screen is listed under Configuration and
// checks a name. Disabled, the sample's panel and screen are gone after a reload;
// uninstalled and purged (held), its row is gone. The throwing plugin's next version, chosen in the Activate dialog,
// shows its panel; rolled back, it runs the version before.
// The queue's rows are seeded as the scrape leaves them (the panel only needs the queue's name). Screenshots land
// in test-results/console/.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { packPluginFolder } from '@/modules/feature/plugins/index.ts';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import {
  BROWSER_ADMIN,
  pressAndHold,
  saveScreenshot,
  saveScreenshotsInBothThemes,
  signInOverApi,
  startSignedInConsole,
  tableLoaded,
  type SignedInConsole,
} from '@test/browser.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues } from '@test/queue-rows.ts';

const SAMPLE = path.resolve(import.meta.dirname, '../../examples/plugins/naming-policy');
const QUEUE = 'orders.created';
const pool = new AppPool();
let session: SignedInConsole | undefined;
let app: AppProcess;
let page: Page;
let db: Database;
let clusterId: string;
let workDir: string;
let sampleZip: string;
let hostileZip: string;
let throwingArchive: string;
let fixedZip: string;
const pageErrors: string[] = [];

const url = (route: string) => `${app.baseUrl}${route}`;
const pluginRow = (id: string) => page.locator(`tr[data-row-key="${id}"]`);

/** A plugin folder written here (manifest, server.js, maybe ui.js), packed as the sample is. */
async function packed(id: string, files: { server: string; ui?: string }, extra: Record<string, unknown> = {}) {
  const folder = path.join(workDir, 'sources', id);
  await mkdir(folder, { recursive: true });
  const manifest = {
    id,
    name: `Test plugin ${id}`,
    version: '1.0.0',
    description: 'A plugin the browser test writes.',
    sdk: 1,
    activation: 'instant',
    server: 'server.js',
    ...(files.ui ? { ui: 'ui.js' } : {}),
    ...extra,
  };
  await writeFile(path.join(folder, 'plugin.json'), JSON.stringify(manifest));
  await writeFile(path.join(folder, 'server.js'), files.server);
  if (files.ui) await writeFile(path.join(folder, 'ui.js'), files.ui);
  return (await packPluginFolder(folder)).bytes;
}

const THROWING_UI = `
export function contribute(sdk) {
  return [
    {
      kind: 'panel',
      slot: 'queue.detail.panels',
      id: 'broken-panel.queue-panel',
      title: 'Broken panel',
      render: () => {
        throw new Error('the panel broke on purpose');
      },
    },
    // Not declared in the manifest: dropped.
    { kind: 'panel', slot: 'queue.detail.panels', id: 'broken-panel.undeclared', render: () => sdk.h('p', null, 'x') },
  ];
}
`;

const FIXED_UI = `
export function contribute(sdk) {
  return [
    {
      kind: 'panel',
      slot: 'queue.detail.panels',
      id: 'broken-panel.queue-panel',
      title: 'Broken panel',
      render: (props) => sdk.h(sdk.ui.Text, { size: 'sm' }, 'Fixed panel for ' + props.queueName),
    },
  ];
}
`;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'flotilla-plugins-browser-'));
  sampleZip = path.join(workDir, 'naming-policy.zip');
  await writeFile(sampleZip, (await packPluginFolder(SAMPLE)).bytes);
  hostileZip = path.join(workDir, 'sneaky.zip');
  await writeFile(
    hostileZip,
    await packed('sneaky', { server: 'export async function activate(api) { return eval("api") }' }),
  );
  throwingArchive = Buffer.from(
    await packed(
      'broken-panel',
      { server: 'export async function activate() {}', ui: THROWING_UI },
      { uiContributions: [{ kind: 'panel', slot: 'queue.detail.panels', id: 'broken-panel.queue-panel' }] },
    ),
  ).toString('base64');
  // Its next version, whose panel works.
  fixedZip = path.join(workDir, 'broken-panel-1.1.0.zip');
  await writeFile(
    fixedZip,
    await packed(
      'broken-panel',
      { server: 'export async function activate() {}', ui: FIXED_UI },
      {
        version: '1.1.0',
        uiContributions: [{ kind: 'panel', slot: 'queue.detail.panels', id: 'broken-panel.queue-panel' }],
      },
    ),
  );

  session = await startSignedInConsole(pool);
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  db = openDatabase(session.database.url, { poolSize: 2, applicationName: 'plugins-browser-test' });
  clusterId = await insertClusterRow(db.prisma, { name: 'payments' });
  const fresh = new Date(Date.now() - 1_000);
  const node = await insertScrapedNode(db.prisma, {
    clusterId,
    brokerNodeId: 'n1',
    brokerName: 'broker-one',
    serving: true,
    sweptAt: fresh,
  });
  await insertScrapedQueues(db.prisma, { clusterId, nodeId: node, scrapedAt: fresh }, [
    { queueName: QUEUE, address: 'orders', messageCount: 3, consumerCount: 1 },
  ]);
}, 240_000);

afterAll(async () => {
  await (db as Database | undefined)?.close();
  await session?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function openPlugins() {
  await page.goto(url('/admin/plugins'));
  await page.getByRole('heading', { name: 'Plugins', level: 1 }).waitFor();
  await tableLoaded(page);
}

async function upload(file: string, button: 'Upload' | 'Check only' = 'Upload') {
  const section = page.getByRole('region', { name: 'Upload' });
  await section.locator('input[type="file"]').setInputFiles(file);
  await section.getByLabel('Your password').fill(BROWSER_ADMIN.password);
  await section.getByRole('button', { name: button, exact: true }).click();
}

async function operate(id: string, label: string) {
  await pluginRow(id)
    .getByRole('button', { name: `Actions for ${id}` })
    .click();
  await page.getByRole('menuitem', { name: `${label}…` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('plugin-plan').and(dialog.locator('[data-allowed="true"]')).waitFor();
  await dialog.getByLabel('Your password').fill(BROWSER_ADMIN.password);
  await dialog.getByRole('button', { name: label, exact: true }).click();
  // The answer, or the problem that refused it (said at once rather than after a timeout).
  const outcome = dialog.getByTestId('plugin-operation-result').or(dialog.getByTestId('problem'));
  await outcome.waitFor();
  expect(await outcome.getAttribute('data-testid'), await outcome.innerText()).toBe('plugin-operation-result');
  return dialog;
}

describe('Admin → Plugins', () => {
  it('is a tab of the admin area, under Installation', async () => {
    await page.goto(url('/admin/modules'));
    await page.getByRole('tab', { name: 'Plugins' }).click();
    await page.waitForURL(url('/admin/plugins'));
    await page.getByRole('heading', { name: 'Plugins', level: 1 }).waitFor();
    await tableLoaded(page);
    await page.getByTestId('data-age').filter({ hasText: /Read/ }).waitFor();
  });

  it('uploads the sample archive, then activates it through its plan and the password typed again', async () => {
    await openPlugins();
    // Check only: validated, nothing stored.
    await upload(sampleZip, 'Check only');
    await page.getByTestId('plugin-upload-result').filter({ hasText: 'Valid (nothing stored)' }).waitFor();
    expect(await pluginRow('naming-policy').count()).toBe(0);
    await upload(sampleZip);
    await page.getByTestId('plugin-upload-result').filter({ hasText: 'Uploaded: naming-policy 1.0.0' }).waitFor();
    await pluginRow('naming-policy').locator('[data-state="UPLOADED"]').waitFor();

    const dialog = await operate('naming-policy', 'Activate');
    // The plan said what it adds before anything ran.
    expect(await dialog.getByTestId('plugin-plan').innerText()).toContain('naming_policy_check');
    expect(await dialog.getByTestId('plugin-operation-result').innerText()).toContain('State ACTIVE');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await pluginRow('naming-policy').locator('[data-state="ACTIVE"]').waitFor();
    await pluginRow('naming-policy').getByTestId('plugin-runs-here').waitFor();
    expect(await pluginRow('naming-policy').getByTestId('plugin-runs-here').innerText()).toMatch(/pid \d+/);
    // Its settings: shown here, changed in Settings under Plugins (marked with the plugin), with their history.
    await page.getByRole('link', { name: 'Change in Settings' }).click();
    const setting = page.getByRole('region', { name: 'Plugins' }).locator('[data-setting="naming-policy.pattern"]');
    await setting.getByTestId('setting-plugin').filter({ hasText: 'plugin naming-policy' }).waitFor();
    await setting.getByLabel('naming-policy.pattern').fill('^[a-z.]+$');
    await setting.getByRole('button', { name: 'Save' }).click();
    await setting.getByTestId('saved').waitFor();
    await setting.getByRole('button', { name: 'History' }).click();
    await setting.getByTestId('setting-history-entry').filter({ hasText: '^[a-z.]+$' }).waitFor();
    await openPlugins();
    const shown = page.locator('[data-testid="plugin-setting"][data-key="naming-policy.pattern"]');
    await expect.poll(() => shown.getByTestId('plugin-setting-value').innerText()).toBe('^[a-z.]+$');
  });

  it('asks for the password again and shows why a wrong one is refused', async () => {
    await openPlugins();
    await pluginRow('naming-policy').getByRole('button', { name: 'Actions for naming-policy' }).click();
    await page.getByRole('menuitem', { name: 'Disable…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('plugin-plan').and(dialog.locator('[data-allowed="true"]')).waitFor();
    await dialog.getByLabel('Your password').fill('not the password');
    await dialog.getByRole('button', { name: 'Disable', exact: true }).click();
    await dialog.getByTestId('problem').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await pluginRow('naming-policy').locator('[data-state="ACTIVE"]').waitFor();
  });

  it('offers the running plugin’s permission in the role editor, under Plugins, for a role that carries it alone', async () => {
    const name = `naming checker ${randomUUID().slice(0, 8)}`; // a retry's own name
    await page.goto(`${app.baseUrl}/admin/access/roles`);
    await page.getByRole('button', { name: 'New role' }).click();
    const dialog = page.getByRole('dialog', { name: 'New role' });
    const plugins = dialog.locator('[data-permission-module="plugins"]');
    await plugins.getByText('Plugins', { exact: true }).waitFor();
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await plugins.getByRole('checkbox', { name: /naming-policy:read/ }).check();
    await plugins.getByText('plugin naming-policy', { exact: true }).waitFor(); // marked as the plugin's
    await saveScreenshot(page, 'role-editor-plugin-permission-light');
    await dialog.getByRole('button', { name: 'Create role' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const stored = await page.evaluate(async (query) => {
      const answer = await fetch(`/api/v1/roles?q=${encodeURIComponent(query)}`);
      return ((await answer.json()) as { items: { name: string; permissions: string[] }[] }).items;
    }, name);
    expect(stored).toEqual([expect.objectContaining({ name, permissions: ['naming-policy:read'] })]);
  });

  it('shows the sample’s panel with its verdict on the queue page, there as soon as the page is', async () => {
    // The bundles' list is held back a second: the console waits for the plugins before showing the page, as a
    // router built after them would, so the panel is not added under the reader once the page is up.
    const slowBundles = async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    };
    await page.route('**/api/v1/plugin-ui', slowBundles);
    const panel = page.locator('[data-plugin="naming-policy"]');
    try {
      await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}`));
      await page.getByRole('heading', { name: QUEUE, level: 1 }).waitFor();
      expect(await panel.count()).toBe(1);
    } finally {
      await page.unroute('**/api/v1/plugin-ui', slowBundles);
    }
    await panel.getByText('Conforms', { exact: true }).waitFor();
    expect(await panel.innerText()).toContain('Naming policy');
  });

  it('lists the sample’s screen under Configuration; the screen checks a name, and a deep link waits for the bundle', async () => {
    await page.goto(url('/'));
    const group = page.locator('[data-nav-group="configuration"]');
    await group.getByRole('link', { name: 'Naming policy' }).click();
    await page.waitForURL(url('/plugin/naming-policy/checker'));
    await page.getByRole('heading', { name: 'Naming policy', level: 1 }).waitFor();
    const screen = page.locator('[data-plugin-screen="checker"]');
    // The pattern set in Admin → Plugins above: lower-case letters and dots.
    await screen.getByLabel('Queue name').fill('Orders_Archive');
    await screen.getByRole('button', { name: 'Check' }).click();
    await screen.getByTestId('naming-policy-verdict').getByText('Does not conform', { exact: true }).waitFor();
    await screen.getByLabel('Queue name').fill('orders.archive');
    await screen.getByRole('button', { name: 'Check' }).click();
    await screen.getByTestId('naming-policy-verdict').getByText('Conforms', { exact: true }).waitFor();
    expect(await screen.getByTestId('naming-policy-verdict').innerText()).toContain('orders.archive');
    // Opened directly (a bookmark): the page waits for the bundles instead of saying there is no such screen.
    await page.goto(url('/plugin/naming-policy/checker'));
    await page.getByRole('heading', { name: 'Naming policy', level: 1 }).waitFor();
    await saveScreenshot(page, 'plugin-screen-light');
  });

  it('refuses a hostile archive and lists every finding', async () => {
    await openPlugins();
    await upload(hostileZip);
    const problem = page.getByRole('region', { name: 'Upload' }).getByTestId('problem');
    await problem.getByTestId('plugin-finding').first().waitFor();
    const codes = await problem
      .getByTestId('plugin-finding')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-code')));
    expect(codes).toContain('bundle-denied-global');
    expect(await problem.innerText()).toContain('Plugin archive refused');
    expect(await pluginRow('sneaky').count()).toBe(0);
    await saveScreenshotsInBothThemes(page, 'plugins', async () => {
      await page.getByRole('heading', { name: 'Plugins', level: 1 }).waitFor();
      await tableLoaded(page);
      await pluginRow('naming-policy').locator('[data-state="ACTIVE"]').waitFor();
    });
  });

  it('shows a plugin panel that throws as its error, and the rest of the queue page works', async () => {
    const api = await signInOverApi(app.baseUrl);
    const post = async (route: string, body: unknown) => {
      const response = await fetch(url(`/api/v1${route}`), {
        method: 'POST',
        headers: { ...api.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBe(200);
    };
    await post('/plugins', { archive: throwingArchive, password: BROWSER_ADMIN.password });
    await post('/plugins/broken-panel/activate', { password: BROWSER_ADMIN.password });

    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}`));
    await page.getByRole('heading', { name: QUEUE, level: 1 }).waitFor();
    const broken = page.locator('[data-plugin="broken-panel"]');
    await broken.getByTestId('plugin-failed').waitFor();
    expect(await broken.innerText()).toContain('Plugin Test plugin broken-panel failed: the panel broke on purpose');
    // The undeclared contribution was dropped; the sample's panel and the page's own parts are all there.
    expect(await page.locator('[data-contribution="broken-panel.undeclared"]').count()).toBe(0);
    await page.locator('[data-plugin="naming-policy"]').getByText('Conforms', { exact: true }).waitFor();
    await page.getByTestId('queue-cells').waitFor();
    await page.getByTestId('queue-messages-panel').getByRole('link', { name: 'Browse messages' }).waitFor();
    await saveScreenshot(page, 'queue-plugin-panels-light');
  });

  it('disables the sample: its panel is gone from the queue page after a reload', async () => {
    await openPlugins();
    const dialog = await operate('naming-policy', 'Disable');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await pluginRow('naming-policy').locator('[data-state="DISABLED"]').waitFor();

    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}`));
    await page.getByRole('heading', { name: QUEUE, level: 1 }).waitFor();
    // The bundles have loaded (the other plugin's panel is there); the sample's is not.
    await page.locator('[data-plugin="broken-panel"]').getByTestId('plugin-failed').waitFor();
    expect(await page.locator('[data-plugin="naming-policy"]').count()).toBe(0);
    // Its screen is gone from the navbar, and a link to it says that no active plugin offers it.
    expect(
      await page.locator('[data-nav-group="configuration"]').getByRole('link', { name: 'Naming policy' }).count(),
    ).toBe(0);
    await page.goto(url('/plugin/naming-policy/checker'));
    await page.getByRole('heading', { name: 'Plugin screen not available', level: 1 }).waitFor();
    expect(pageErrors.filter((message) => !message.includes('the panel broke on purpose'))).toEqual([]);
  });

  it('activates a chosen version of a plugin, then rolls it back to the one it ran before', async () => {
    await openPlugins();
    await upload(fixedZip);
    await page.getByTestId('plugin-upload-result').filter({ hasText: 'Uploaded: broken-panel 1.1.0' }).waitFor();
    await pluginRow('broken-panel').getByRole('button', { name: 'Actions for broken-panel' }).click();
    await page.getByRole('menuitem', { name: 'Activate…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Version', { exact: true }).click();
    await page.getByRole('option', { name: '1.1.0', exact: true }).click();
    const plan = dialog.getByTestId('plugin-plan').and(dialog.locator('[data-allowed="true"]'));
    await plan.filter({ hasText: '1.0.0 → 1.1.0' }).waitFor();
    await dialog.getByLabel('Your password').fill(BROWSER_ADMIN.password);
    await dialog.getByRole('button', { name: 'Activate', exact: true }).click();
    await dialog.getByTestId('plugin-operation-result').filter({ hasText: 'version 1.1.0' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.goto(url(`/clusters/${clusterId}/queues/${QUEUE}`));
    await page.locator('[data-plugin="broken-panel"]').getByText(`Fixed panel for ${QUEUE}`).waitFor();
    expect(await page.getByTestId('plugin-failed').count()).toBe(0);

    await openPlugins();
    const rolledBack = await operate('broken-panel', 'Roll back');
    expect(await rolledBack.getByTestId('plugin-operation-result').innerText()).toContain('version 1.0.0');
    await rolledBack.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => pluginRow('broken-panel').innerText()).toMatch(/1\.0\.0[\s\S]*1\.1\.0/);
  });

  it('uninstalls the sample, then purges it with the hold: its row is gone', async () => {
    await openPlugins();
    await pluginRow('naming-policy').waitFor();
    // A retry finds the sample as its first attempt left it: uninstalled already.
    if ((await pluginRow('naming-policy').locator('[data-state="UNINSTALLED"]').count()) === 0) {
      const uninstalled = await operate('naming-policy', 'Uninstall');
      await uninstalled.getByRole('button', { name: 'Close' }).click();
      await pluginRow('naming-policy').locator('[data-state="UNINSTALLED"]').waitFor();
    }

    await pluginRow('naming-policy').getByRole('button', { name: 'Actions for naming-policy' }).click();
    await page.getByRole('menuitem', { name: 'Purge…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('plugin-plan').and(dialog.locator('[data-allowed="true"]')).waitFor();
    await dialog.getByLabel('Your password').fill(BROWSER_ADMIN.password);
    await pressAndHold(
      dialog.getByRole('button', { name: 'Hold to purge 1 plugin (press and hold)' }),
      dialog.getByTestId('plugin-operation-result'),
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await pluginRow('naming-policy').waitFor({ state: 'detached' });
  });
});
