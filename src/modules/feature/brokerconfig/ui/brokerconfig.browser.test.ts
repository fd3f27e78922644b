// The broker configuration screens in a real Chromium against Flotilla started as `npm start` does and a real leased
// broker: the live configuration is adopted (a dry run shows the document and its notes first), the document is
// rewritten in the CodeMirror editor (the schema marks a wrong value and offers completion), saved with a comment and
// listed in History; the plan shows its step, a dry run and the apply follow, and the item reads IN_SYNC on the node.
// The suite declares only its own match (under the lease's prefix): Flotilla removes only what it applied, so the
// shared broker's other queues and settings are never planned; the lease's stop removes the setting it applied.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import {
  layoutFit,
  saveScreenshotsInBothThemes,
  signInOverApi,
  openSharedConsole,
  pickClusterFrom,
  type SharedConsole,
} from '@test/browser.ts';
import { leaveSharedConsole, registerSingleNodeCluster } from '@test/browser-cluster.ts';

const broker = leaseSingleNode();
const MATCH = broker.name('cfg.ui.#');
let session: SharedConsole | undefined;
let app: SharedConsole['app'];
let page: Page;
let clusterId: string;
const pageErrors: string[] = [];

const url = (path: string) => `${app.baseUrl}${path}`;
const documentWith = (settings: Record<string, unknown>) =>
  JSON.stringify({ addressSettings: [{ match: MATCH, settings }] }, null, 2);
const revisionShown = (number: number) =>
  page.locator(`[data-testid="current-revision"][data-revision="${String(number)}"]`).waitFor();

/** Replaces the editor's whole text, as a paste does (typing JSON would fight the editor's closing brackets). */
async function replaceEditorText(text: string): Promise<void> {
  const content = page.getByTestId('config-editor').locator('.cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

/** Scrolls the editor into view and back to the top: CodeMirror measures its lines once they are on screen. */
async function showEditor(): Promise<void> {
  const content = page.getByTestId('config-editor').locator('.cm-content');
  await content.scrollIntoViewIfNeeded();
  await page.waitForTimeout(100);
  await page.evaluate(() => window.scrollTo(0, 0));
}

beforeAll(async () => {
  session = await openSharedConsole();
  ({ app, page } = session);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 1280, height: 900 });
  const api = await signInOverApi(app.baseUrl);
  clusterId = await registerSingleNodeCluster(app.baseUrl, api, broker.nodes[0] as BrokerNode, 'config-cluster');
}, 240_000);

afterAll(async () => {
  await leaveSharedConsole(session, { clusterId });
  await broker.stop();
});

describe('broker configuration screens on a real broker', () => {
  it('adopts the live configuration, edits it in the editor, saves it and lists it in History', async () => {
    await pickClusterFrom(page, url('/config'), 'config-cluster', url(`/clusters/${clusterId}/config`));
    await revisionShown(0);

    await page.getByRole('button', { name: 'Adopt the live configuration' }).click();
    const adopt = page.getByTestId('adopt-dialog');
    // The dry run: the document it would declare and its notes, nothing stored yet.
    await adopt.getByTestId('adopt-notes').waitFor();
    expect(await adopt.getByTestId('adopt-notes').innerText()).toContain('"#"');
    await adopt.getByTestId('adopt-document').locator('.cm-content').waitFor();
    await adopt.getByRole('button', { name: 'Save as revision 1' }).click();
    await revisionShown(1);
    expect(await page.getByTestId('draft-origin').innerText()).toBe('Revision 1');

    // In the editor: a value the schema refuses is marked, and completion offers the schema's fields.
    await page.getByTestId('config-editor').locator('.cm-content').waitFor();
    await replaceEditorText(documentWith({ maxDeliveryAttempts: 'four' }));
    await page.locator('.cm-lintRange-error').first().waitFor();
    await replaceEditorText(`{"addressSettings": [{"match": "${MATCH}", "settings": {"maxDeliveryAttempts": 4, `);
    await page.keyboard.type('"redeliv');
    await page.locator('.cm-tooltip-autocomplete').getByText('redeliveryDelay').first().waitFor();
    await page.keyboard.press('Escape');
    await replaceEditorText(documentWith({ maxDeliveryAttempts: 4, redeliveryDelay: 250 }));
    await expect.poll(() => page.locator('.cm-lintRange-error').count()).toBe(0);
    // The form view shows the same document (the '#' setting is not declared in it).
    await page.getByText('Form', { exact: true }).click();
    await page.getByTestId('config-form').waitFor();
    await page.getByText('Editor', { exact: true }).click();

    await page.getByRole('button', { name: 'Save…' }).click();
    const save = page.getByTestId('save-dialog');
    await save.getByTestId('save-changes').waitFor();
    expect(await save.getByTestId('save-changes').innerText()).toContain(`+ addressSettings ${MATCH}`);
    await save.getByLabel('Comment').fill('fewer deliveries for the UI suite');
    await save.getByRole('button', { name: 'Save revision' }).click();
    await revisionShown(2);

    await page.getByRole('tab', { name: 'History' }).click();
    await page.waitForURL((at) => at.searchParams.get('tab') === 'history');
    const newest = page.locator('[data-testid="table-config-history"] tbody tr').first();
    await expect.poll(() => newest.getAttribute('data-revision')).toBe('2');
    expect(await newest.innerText()).toContain('fewer deliveries for the UI suite');
    expect(await newest.innerText()).toContain(`+ addressSettings ${MATCH}`);
    expect(
      await page
        .locator('[data-testid="table-config-history"] tbody tr[data-revision="1"]')
        .getAttribute('data-source'),
    ).toBe('adopt');
  });

  it('previews the plan, applies it canary first and shows the item in sync', async () => {
    await page.getByTestId('preview-plan').click();
    const dialog = page.getByTestId('plan-dialog');
    const step = dialog.locator(`[data-testid="table-config-plan-steps"] tbody tr[data-key="${MATCH}"]`);
    await step.waitFor();
    expect(await step.innerText()).toContain('maxDeliveryAttempts: 4');
    expect(await dialog.getByTestId('canary').count()).toBe(1);
    // Every High hazard is acknowledged by its own checkbox (none is expected for a new match).
    for (const box of await dialog.getByTestId('acknowledge-hazard').locator('input').all()) await box.check();

    await dialog.getByRole('button', { name: 'Dry run' }).click();
    await dialog.locator('[data-testid="apply-outcome"][data-status="WOULD_APPLY"]').waitFor();
    await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
    await dialog.locator('[data-testid="apply-outcome"][data-status="SUCCEEDED"]').waitFor({ timeout: 30_000 });
    expect(await dialog.getByTestId('node-outcome').getAttribute('data-outcome')).toBe('APPLIED');
    await page.keyboard.press('Escape');

    // Drift is evaluated after the apply and signalled on the config topic: the row turns IN_SYNC without a reload.
    const row = page.locator(`[data-testid="table-config-drift"] tbody tr[data-key="${MATCH}"]`);
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('IN_SYNC');
    expect(await page.getByTestId('bridge-fields-note').innerText()).toContain('applied, never verified');
    await page.locator('[data-testid="table-config-runs"] tbody tr[data-status="SUCCEEDED"]').waitFor();
  });

  // Its own test, so that a retry of it (a reload slow on a loaded machine) does not repeat the apply above, which a
  // second attempt could not: the plan is empty once applied.
  it('shows the editor in step with its gutter, fitting the screen, and the overview says every item is in sync', async () => {
    const row = page.locator(`[data-testid="table-config-drift"] tbody tr[data-key="${MATCH}"]`);
    // On Declared (no tab in the URL), so the screenshots show the editor; opened afresh, as a retry starts anywhere.
    await page.goto(url(`/clusters/${clusterId}/config`));
    await page.getByTestId('config-editor').locator('.cm-content').waitFor();
    // The editor's gutter keeps step with its lines once it is in view (CodeMirror measures only what it shows).
    await showEditor();
    const gap = () =>
      page.getByTestId('config-editor').evaluate((editor) => {
        const height = (selector: string) => editor.querySelector(selector)?.getBoundingClientRect().height ?? 0;
        return Math.abs(height('.cm-lineNumbers .cm-gutterElement:nth-child(2)') - height('.cm-line'));
      });
    await expect.poll(gap).toBeLessThanOrEqual(1);
    const { overflow, cutBadges } = await layoutFit(page);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(cutBadges).toEqual([]);
    await saveScreenshotsInBothThemes(page, 'brokerconfig-cluster', async () => {
      await row.waitFor({ timeout: 30_000 });
      await showEditor();
    });

    // The cluster's overview says the same in its panel.
    await page.goto(url(`/clusters/${clusterId}`));
    const panel = page.getByTestId('cluster-config-summary');
    await expect.poll(() => panel.innerText(), { timeout: 15_000 }).toContain('every item in sync');
    expect(pageErrors).toEqual([]);
  });
});
