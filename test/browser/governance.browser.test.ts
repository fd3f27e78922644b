// Admin → Governance in a real Chromium: the sample tester shows a card number partly masked to a caller without
// message:clear and in clear (marked sensitive) to one with it, a bearer token dropped for both; a rule added on
// the screen classifies a field no detector knows, and putting the draft in force makes it version 1.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import { saveScreenshot, startSignedInConsole, type SignedInConsole } from '@test/browser.ts';
import { queryDatabase } from '@test/database.ts';

const pool = new AppPool();
let session: SignedInConsole | undefined;
let app: AppProcess;
let page: Page;

beforeAll(async () => {
  session = await startSignedInConsole(pool);
  ({ app, page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('Admin → Governance', () => {
  it('shows both views of a sample, then puts a new rule in force as version 1', async () => {
    await removeAVersionPutInForceByAnEarlierAttempt();
    await page.goto(`${app.baseUrl}/admin/governance`);
    await page.getByRole('heading', { name: 'Governance', level: 1 }).waitFor();
    expect(await page.getByTestId('policy-version').innerText()).toMatch(/version 0/i);

    await page.getByRole('button', { name: 'Test with this draft' }).click();
    const masked = page.getByTestId('view-masked-body');
    await masked.waitFor();
    expect(await masked.innerText()).toContain('•••• •••• •••• 1111');
    expect(await masked.innerText()).toContain('[dropped credential]');
    expect(await masked.innerText()).not.toContain('jane@example.com');
    const clear = await page.getByTestId('view-clear-body').innerText();
    expect(clear).toContain('4111 1111 1111 1111');
    expect(clear).toContain('[dropped credential]');
    expect(await page.getByTestId('view-clear').innerText()).toMatch(/shown, sensitive/i);

    // The order number is nobody's business: a rule classifies it, tried before it is in force.
    const form = page.getByRole('group', { name: 'Add a rule' });
    await form.getByLabel('Matches').fill('$.order');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page.getByTestId('draft-pending').waitFor();
    await page.getByRole('button', { name: 'Test with this draft' }).click();
    await expect.poll(() => masked.innerText()).toContain('"order": "[masked personal contact]"');
    await saveScreenshot(page, 'governance');

    await page.getByRole('button', { name: 'Put in force as version 1' }).click();
    await expect.poll(() => page.getByTestId('policy-version').innerText()).toMatch(/version 1/i);
    expect(await page.getByTestId('table-governance-rules').innerText()).toContain('$.order');
  });
});

/**
 * A retry finds version 1 put in force by its first attempt (versions only grow): it is taken out of the table, and
 * the app is told as a save tells it, so that the retry starts at version 0 as the first attempt did.
 */
async function removeAVersionPutInForceByAnEarlierAttempt(): Promise<void> {
  const databaseUrl = session?.database.url ?? '';
  const removed = await queryDatabase(databaseUrl, 'DELETE FROM governance_policy RETURNING version');
  if (removed.length === 0) return;
  await queryDatabase(databaseUrl, 'SELECT pg_notify($1, $2)', ['flotilla_governance', '0']);
  await expect
    .poll(async () => {
      const answer = await page.request.get(`${app.baseUrl}/api/v1/governance/policy`);
      return ((await answer.json()) as { policy: { version: number } }).policy.version;
    })
    .toBe(0);
}
