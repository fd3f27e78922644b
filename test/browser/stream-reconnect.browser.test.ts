// The console's stream client against a real restart: the supervisor is stopped with SIGTERM (the web process
// closes streams telling clients to reconnect, then exits) and started again on the same port and database.
// The connection indicator must go down, come back to connected by itself, and a signal published after the
// restart must still refresh the jobs view (no polling while connected, so only the signal can do it).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import { eventually } from '@test/eventually.ts';
import {
  BROWSER_ADMIN_ENV,
  saveScreenshot,
  signInOverApi,
  startSignedInConsole,
  type SignedInConsole,
} from '@test/browser.ts';

const pool = new AppPool();
let session: SignedInConsole | undefined;
let app: AppProcess;
let page: Page;

const streamIn = (state: string) => page.locator(`[data-testid="stream-state"][data-state="${state}"]`);

/** When the jobs table says audit.retention last finished, as the page shows it (undefined: never). */
async function shownLastRun(): Promise<number | undefined> {
  const time = page.locator('tr[data-row-key="audit.retention"] [data-column="lastRun"] time');
  if ((await time.count()) === 0) return undefined;
  const iso = await time.getAttribute('datetime');
  return iso ? Date.parse(iso) : undefined;
}

beforeAll(async () => {
  session = await startSignedInConsole(pool);
  ({ app, page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('the stream client', () => {
  it('shows the stream down while the server restarts, reconnects by itself, and signals refresh views again', async () => {
    // A retry may find the server its first attempt stopped and did not start again.
    if (!app.running)
      app = await pool.startReady({
        port: app.port,
        env: { DATABASE_URL: session?.database.url ?? '', ...BROWSER_ADMIN_ENV },
      });
    await page.goto(`${app.baseUrl}/admin/jobs`);
    await page.locator('tr[data-row-key="audit.retention"]').waitFor();
    await streamIn('connected').waitFor();

    const listRequests: number[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/trpc/jobs.list')) listRequests.push(Date.now());
    });

    const { port } = app;
    await app.stop();
    await streamIn('down').waitFor({ timeout: 30_000 });
    await saveScreenshot(page, 'jobs-stream-down-light');
    // While the stream is down the view polls (every 5 s), so it would catch up even without signals.
    const downSince = Date.now();
    await eventually(
      'the jobs view to poll while the stream is down',
      () => (listRequests.some((at) => at > downSince) ? true : undefined),
      12_000,
    );

    // Sessions live in the database, so the browser's session survives the restart.
    app = await pool.startReady({ port, env: { DATABASE_URL: session?.database.url ?? '', ...BROWSER_ADMIN_ENV } });
    // Backoff is capped at 15 s (jittered), so the indicator is back well within this.
    await streamIn('connected').waitFor({ timeout: 45_000 });

    // A 1 s sweep interval makes the worker run the job and publish a `health` signal every second.
    const changedAt = Date.now();
    const response = await fetch(`${app.baseUrl}/api/v1/settings/audit.retention-sweep-interval`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', ...(await signInOverApi(app.baseUrl)).headers },
      body: JSON.stringify({ value: '1s' }),
    });
    expect(response.status).toBe(200);
    const shown = await eventually(
      'the jobs view to show a run finished after the change',
      async () => {
        const lastRun = await shownLastRun();
        return lastRun !== undefined && lastRun >= changedAt - 1_000 ? lastRun : undefined;
      },
      15_000,
      250,
    );
    expect(shown).toBeGreaterThanOrEqual(changedAt - 1_000);
    expect(await streamIn('connected').count()).toBe(1);
    await saveScreenshot(page, 'jobs-after-restart-light');
  });
});
