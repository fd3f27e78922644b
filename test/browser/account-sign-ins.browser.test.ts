// Your account in a real Chromium, after your username failed to sign in from addresses you have not signed in
// from: the page says how many since when, and that they are held back while your own addresses are not. The
// failures are written as the throttle keeps them (every request of this test comes from 127.0.0.1, where the admin
// signed in: a familiar address, which the username-wide key never counts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot, startSignedInConsole, type SignedInConsole } from '@test/browser.ts';
import { AppPool } from '@test/app-process.ts';
import { queryDatabase } from '@test/database.ts';

const pool = new AppPool();
let session: SignedInConsole;

beforeAll(async () => {
  session = await startSignedInConsole(pool);
});

afterAll(async () => {
  await session.close();
});

describe('your account', () => {
  it('shows no notice without failures, then the failed sign-ins from unfamiliar addresses and the hold', async () => {
    const { app, page, database } = session;
    await page.goto(`${app.baseUrl}/account`);
    await page.getByTestId('account-profile').waitFor();
    expect(await page.getByTestId('unfamiliar-sign-ins').count()).toBe(0);

    await queryDatabase(
      database.url,
      `INSERT INTO sign_in_throttle (key, failures, window_starts_at, locked_until, refused)
       VALUES ('user:admin', 50, now() - interval '5 minutes', now() + interval '10 minutes', 0)
       ON CONFLICT (key) DO UPDATE SET failures = 50, locked_until = now() + interval '10 minutes'`,
    );
    await page.reload();
    const notice = page.getByTestId('unfamiliar-sign-ins');
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(
      /50 failed sign-ins with your username from addresses you have not signed in from, since .*held back until .*addresses you signed in from recently are not/s,
    );
    await saveScreenshot(page, 'account-unfamiliar-sign-ins');
  });
});
