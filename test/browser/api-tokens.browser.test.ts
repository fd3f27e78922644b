// Account → API tokens in a real Chromium: the account page (user menu → Your account) with the module's
// account.sections entry, then create a token and see it once, use it as a bearer, revoke it by press-and-hold (a
// short click does nothing), after which the same bearer call is refused.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteEveryListed } from '@test/retry-cleanup.ts';
import { saveScreenshot, signInOverApi, openSharedConsole, type SharedConsole } from '@test/browser.ts';

let session: SharedConsole | undefined;
let app: SharedConsole['app'];
let page: Page;

const url = (path: string) => `${app.baseUrl}${path}`;
const asBearer = (token: string) => fetch(url('/api/v1/account'), { headers: { Authorization: `Bearer ${token}` } });

beforeAll(async () => {
  session = await openSharedConsole();
  ({ app, page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('API tokens', () => {
  it('reaches the tokens from the account page, through the account.sections slot', async () => {
    await page.goto(url('/'));
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Your account' }).click();
    await page.waitForURL(url('/account'));
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    expect(await page.getByTestId('account-profile').innerText()).toMatch(/Username\s+admin/);
    expect(await page.getByTestId('account-permissions').innerText()).toContain('settings:write');
    const section = page.getByRole('region', { name: 'API tokens' });
    await section.getByTestId('account-token-count').filter({ hasText: '0 active tokens' }).waitFor();
    await saveScreenshot(page, 'account-light');
    await section.getByRole('link', { name: 'Manage API tokens' }).click();
    await page.waitForURL(url('/account/tokens'));
  });

  it('creates a token shown once, uses it as a bearer, and revokes it by press-and-hold', async () => {
    await revokeTokensLeftByAnEarlierAttempt();
    await page.goto(url('/account/tokens'));
    await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
    await page.getByTestId('empty-state').waitFor();
    // Nothing here yet (no filter is set), which reads differently from "nothing matches".
    expect(await page.getByTestId('empty-state').getAttribute('data-empty')).toBe('none');

    const form = page.getByRole('form', { name: 'Create API token' });
    await form.getByRole('textbox', { name: 'Name' }).fill('ci-script');
    await form.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByTestId('new-token');
    await shown.waitFor();
    const token = await shown.getByTestId('new-token-value').innerText();
    expect(token).toMatch(/^as_/);
    expect(await shown.innerText()).toContain('you will not see it again');
    await shown.getByRole('button', { name: 'Copy' }).waitFor();

    const row = page.getByTestId('table-api-tokens').locator('tbody tr').filter({ hasText: 'ci-script' });
    await row.waitFor();
    // No expiry asked: the longest allowed, apitokens.max-lifetime (two years).
    expect(await row.locator('[data-column="expires"]').innerText()).toMatch(/in 2 yr/);
    expect(await row.locator('[data-column="lastUsed"]').innerText()).toBe('never');

    const used = await asBearer(token);
    expect(used.status).toBe(200);
    expect(((await used.json()) as { actor: string }).actor).toBe('admin [token: ci-script]');
    await saveScreenshot(page, 'api-tokens-light');

    // The token is shown once: after a reload only its name is left.
    await page.reload();
    await row.waitFor();
    expect(await page.getByTestId('new-token').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain(token);

    const revoke = row.getByRole('button', { name: 'Hold to revoke 1 token (press and hold)' });
    expect(await revoke.innerText()).toBe('Hold to revoke 1 token');
    // A short click does not revoke.
    await revoke.click();
    await page.waitForTimeout(2_000);
    expect(await row.count()).toBe(1);
    expect((await asBearer(token)).status).toBe(200);

    const box = await revoke.boundingBox();
    if (!box) throw new Error('revoke button not visible');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    try {
      await page.getByTestId('empty-state').waitFor({ timeout: 10_000 });
    } finally {
      await page.mouse.up();
    }
    const refused = await asBearer(token);
    await refused.body?.cancel();
    expect(refused.status).toBe(401);
  });
});

/** A retry starts from no token, as the first attempt did: the empty list and the one new token need it. */
async function revokeTokensLeftByAnEarlierAttempt(): Promise<void> {
  const { headers } = await signInOverApi(app.baseUrl);
  await deleteEveryListed(app.baseUrl, headers, '/account/tokens', ({ id }) => `/account/tokens/${id}`);
}
