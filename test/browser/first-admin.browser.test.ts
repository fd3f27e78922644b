// First run without FLOTILLA_ADMIN_PASSWORD: start-up prints a generated password once, and the console makes the
// admin change it before anything else, then returns to the page first asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import { launchBrowser, saveScreenshot, type Browser } from '@test/browser.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';
import { signIn } from '@test/sign-in.ts';

const pool = new AppPool();
let database: TestDatabase;
let app: AppProcess;
let browser: Browser;

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  // Empty values: as if the variables were not set at all.
  app = await pool.startReady({
    env: { DATABASE_URL: database.url, FLOTILLA_ADMIN_USERNAME: '', FLOTILLA_ADMIN_PASSWORD: '' },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await (browser as Browser | undefined)?.close();
  await pool.destroyAll();
  await (database as TestDatabase | undefined)?.drop();
});

describe('the first admin', () => {
  it('gets a printed password that must be changed at the first sign-in', async () => {
    const line = app.findLog({ process: 'supervisor', username: 'admin', msg: /^created the first admin/ });
    const printed = /^created the first admin "admin" with the password (\S+) \(shown only this once/.exec(
      line?.msg ?? '',
    );
    expect(printed).not.toBeNull();
    const password = printed?.[1] ?? '';
    expect(password).toMatch(/^[a-zA-Z2-9]{24}$/);
    expect(app.output().split(password)).toHaveLength(2); // printed exactly once

    await undoAnEarlierAttempt(password);
    const page = await browser.newPage();
    await page.goto(`${app.baseUrl}/settings`);
    await page.waitForURL(/\/sign-in\?next=%2Fsettings/);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL(/\/change-password\?next=%2Fsettings/);
    await saveScreenshot(page, 'change-password-light');
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel(/^New password(?! again)/).fill('a chosen first password');
    await page.getByLabel('New password again').fill('a chosen first password');
    await page.getByRole('button', { name: 'Change password' }).click();

    await page.waitForURL(/\/settings$/);
    await page.getByRole('heading', { name: 'Settings' }).first().waitFor();
    const account = await page.evaluate(
      async () => (await fetch('/api/v1/account')).json() as Promise<{ mustChangePassword: boolean }>,
    );
    expect(account.mustChangePassword).toBe(false);
  });

  it('stays on this site whatever ?next= says after signing in (no open redirect)', async () => {
    for (const next of ['/\\evil.example', '/\t/evil.example', '/\n/evil.example', '//evil.example']) {
      await browser.context.clearCookies();
      const page = await browser.newPage();
      await page.goto(`${app.baseUrl}/sign-in?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel(/^Password/).fill('a chosen first password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/' || url.origin !== app.baseUrl);
      expect(new URL(page.url()).origin).toBe(app.baseUrl);
      await page.close();
    }
  });
});

/**
 * A retry finds the browser signed in by its first attempt, and perhaps the password that attempt chose: the browser
 * signed out, and the printed password back (an admin's reset, which asks for a new one again as at the first start).
 */
async function undoAnEarlierAttempt(printed: string): Promise<void> {
  await browser.context.clearCookies();
  const [admin] = await queryDatabase<{ id: string; must_change_password: boolean }>(
    database.url,
    `SELECT id, must_change_password FROM flotilla_user WHERE username = 'admin'`,
  );
  if (!admin || admin.must_change_password) return;
  const headers = await signIn((request) => fetch(request), app.baseUrl, {
    username: 'admin',
    password: 'a chosen first password',
  });
  const reset = await fetch(`${app.baseUrl}/api/v1/users/${admin.id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ password: printed }),
  });
  await reset.body?.cancel();
  expect(reset.status).toBe(200);
}
