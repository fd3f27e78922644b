// Admin → Access in a real Chromium: create a user (an inline validation error first) and give them a role
// through the screens, sign out with the header's user menu, sign in as the new user, choose a new password as
// asked, and see exactly what the grant allows. Screenshots of the three Access screens go to test-results/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteEveryListed } from '@test/retry-cleanup.ts';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import {
  saveScreenshot,
  signInOverApi,
  startSignedInConsole,
  tableLoaded as waitForTable,
  type SignedInConsole,
} from '@test/browser.ts';

const pool = new AppPool();
let session: SignedInConsole | undefined;
let app: AppProcess;
let page: Page;

const url = (path: string) => `${app.baseUrl}${path}`;
const NINA = { username: 'nina', first: 'her first password', chosen: 'her chosen password' };

const tableLoaded = () => waitForTable(page);

beforeAll(async () => {
  session = await startSignedInConsole(pool);
  ({ app, page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('Admin → Access', () => {
  it('creates a user and a grant, signs out, and the new user sees what the grant allows', async () => {
    await startAsTheAdminWithoutNina();
    await page.goto(url('/admin/access'));
    await page.waitForURL(/\/admin\/access\/users$/);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const tabs = page.getByRole('tablist');
    await tabs.getByRole('tab', { name: 'Grants' }).waitFor();
    expect(await tabs.innerText()).toMatch(/Access\s*Users\s*Roles\s*Grants/i);
    await tableLoaded();

    await page.getByRole('button', { name: 'New user' }).click();
    const create = page.getByRole('form', { name: 'Create user' });
    await create.getByLabel('Username').fill(NINA.username);
    await create.getByLabel('Display name').fill('Nina Simone');
    await create.getByLabel(/^Password/).fill('too short');
    await create.getByRole('button', { name: 'Create user' }).click();
    await create.getByText('must have at least 12 characters').waitFor();
    await create.getByLabel(/^Password/).fill(NINA.first);
    await create.getByRole('button', { name: 'Create user' }).click();
    await create.waitFor({ state: 'detached' });
    const row = page.getByTestId('table-users').locator('tbody tr').filter({ hasText: NINA.username });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/new password due/i);
    await saveScreenshot(page, 'access-users-light');

    // The only administrator is not offered what the last-administrator rule would refuse.
    await page.getByRole('button', { name: 'Edit admin' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('sole-admin').waitFor();
    expect(await dialog.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await dialog.getByRole('switch', { name: 'Disabled' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Roles' }).click();
    await page.getByRole('heading', { name: 'Roles', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Open role viewer' }).click();
    const permissions = page.getByRole('group', { name: 'Permissions' });
    await permissions.locator('[data-permission-module="settings"]').getByText('settings:read').waitFor();
    expect(await page.getByRole('dialog').innerText()).toContain('cannot be changed');
    // Read-only: ticking a permission the built-in role lacks changes nothing.
    const write = permissions.getByRole('checkbox', { name: /settings:write/ });
    await write.click({ force: true });
    expect(await write.isChecked()).toBe(false);
    await page.waitForTimeout(500); // the dialog's opening transition, for the screenshot
    await saveScreenshot(page, 'access-roles-viewer-light');
    await page.keyboard.press('Escape');
    await tableLoaded();
    await saveScreenshot(page, 'access-roles-light');

    await page.getByRole('tab', { name: 'Grants' }).click();
    await page.getByRole('heading', { name: 'Grants', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New grant' }).click();
    const grant = page.getByRole('form', { name: 'Create grant' });
    await grant.getByLabel(/^User/).fill('nin');
    await page.getByRole('option', { name: 'nina (Nina Simone)' }).click();
    await grant.getByLabel(/^Role/).click();
    await page.getByRole('option', { name: 'viewer', exact: true }).click();
    await grant.getByRole('button', { name: 'Give role' }).click();
    await grant.waitFor({ state: 'detached' });
    const grantRow = page.getByTestId('table-grants').locator('tbody tr').filter({ hasText: NINA.username });
    await grantRow.waitFor();
    expect(await grantRow.innerText()).toMatch(/viewer[\s\S]*everywhere/i);
    await saveScreenshot(page, 'access-grants-light');

    // Removing the only administrator's grant is refused, and the screen says why. The dialog's overlay fades out
    // after its form is gone; a press before then lands on the overlay.
    await page.locator('.mantine-Modal-overlay').waitFor({ state: 'detached' });
    const adminRow = page.getByTestId('table-grants').locator('tbody tr').filter({ hasText: 'admin' });
    const hold = await adminRow.getByRole('button', { name: /Hold to remove 1 grant/ }).boundingBox();
    if (!hold) throw new Error('remove button not visible');
    await page.mouse.move(hold.x + hold.width / 2, hold.y + hold.height / 2);
    await page.mouse.down();
    try {
      await adminRow.getByTestId('problem').filter({ hasText: 'Last administrator' }).waitFor({ timeout: 10_000 });
    } finally {
      await page.mouse.up();
    }
    expect(await adminRow.getByTestId('problem').innerText()).toContain('would leave no administrator');

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    const status = await page.evaluate(() => fetch('/api/v1/account').then((response) => response.status));
    expect(status).toBe(401);

    await page.getByLabel('Username').fill(NINA.username);
    await page.getByLabel(/^Password/).fill(NINA.first);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/change-password/);
    await page.getByLabel('Current password').fill(NINA.first);
    await page.getByLabel(/^New password(?! again)/).fill(NINA.chosen);
    await page.getByLabel('New password again').fill(NINA.chosen);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL((current) => !current.pathname.startsWith('/change-password'));

    // The viewer role: settings may be read, the audit log (operator) and users (admin) may not.
    await page.goto(url('/settings'));
    await page.getByRole('heading', { name: 'Settings' }).first().waitFor();
    await page.getByTestId('user-menu').filter({ hasText: NINA.username }).waitFor();
    await page.goto(url('/audit'));
    await page.getByTestId('problem').filter({ hasText: 'audit:read' }).waitFor();
    await page.goto(url('/admin/access/users'));
    await page.getByTestId('problem').filter({ hasText: 'users:read' }).waitFor();
  });
});

/**
 * A retry finds what its first attempt left: nina created (her username taken, her password perhaps changed) and the
 * browser signed out or signed in as her. It starts as the first attempt did: no nina, the admin signed in.
 */
async function startAsTheAdminWithoutNina(): Promise<void> {
  const admin = await signInOverApi(app.baseUrl);
  await deleteEveryListed<{ id: string; username: string }>(
    app.baseUrl,
    admin.headers,
    `/users?q=${NINA.username}`,
    ({ id }) => `/users/${id}`,
    (user) => user.username === NINA.username,
  );
  const context = page.context();
  await context.clearCookies();
  await context.addCookies(admin.cookies.map((cookie) => ({ ...cookie, url: app.baseUrl })));
}
