// OIDC sign-in end to end: a real OpenID provider on loopback (oidc-provider), Flotilla started as `npm start`
// does and configured for it, and Chromium. The admin maps the provider's group `ops` to operator on the
// Identity providers screen; a person signs in with the provider's button, lands in the console as a
// just-in-time account whose permissions come from that mapping; their groups change at the provider and the next
// sign-in applies the change. Failures at the callback (unknown provider, forged state) are counted, audited and
// throttled like password failures. An installer from the provider steps up for a plugin change by signing in there
// again: a sign-in older than five minutes does not count.
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPool, freePort, type AppProcess } from '@test/app-process.ts';
import { BROWSER_ADMIN_ENV, launchBrowser, saveScreenshot, signInOverApi, type Browser } from '@test/browser.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { startOidcProvider, type TestOidcProvider } from '@test/oidc-provider.ts';
import { packPluginFolder } from '@/modules/feature/plugins/index.ts';

const pool = new AppPool();
let database: TestDatabase | undefined;
let oidc: TestOidcProvider | undefined;
let browser: Browser | undefined;
let app: AppProcess;
let adminHeaders: Record<string, string>;
/** Attempts of the tests below that need a person or an address of their own on a retry. */
const attempts = { signIn: 0, throttle: 0, stepUp: 0 };
const SAMPLE_PLUGIN = path.resolve(import.meta.dirname, '../../examples/plugins/naming-policy');

const url = (path: string) => `${app.baseUrl}${path}`;

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = adminHeaders) {
  const response = await fetch(url(path), {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * A call from the page itself, with its cookies (and the CSRF token for changes), as the console makes them. The
 * console may navigate by itself meanwhile (to the sign-in page when it sees its session end), which ends the page's
 * context under the call (seen once in CI): a read is asked again on the page it lands on; a change is not repeated.
 */
async function fromPage(page: Page, method: string, path: string): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await callFromPage(page, method, path);
    } catch (error) {
      if (method !== 'GET' || attempt === 3 || !String(error).includes('Execution context was destroyed')) throw error;
      await page.waitForLoadState('load');
    }
  }
}

function callFromPage(page: Page, method: string, path: string): Promise<number> {
  return page.evaluate(
    async ([verb, target]) => {
      const csrf = document.cookie
        .split('; ')
        .find((cookie) => cookie.startsWith('flotilla_csrf='))
        ?.slice('flotilla_csrf='.length);
      const response = await fetch(target ?? '', {
        method: verb,
        headers: { 'content-type': 'application/json', ...(csrf ? { 'X-CSRF-Token': csrf } : {}) },
        body: verb === 'GET' ? undefined : '{}',
      });
      return response.status;
    },
    [method, path],
  );
}

/** A change from the page with a JSON body, its cookies and CSRF token: what the console sends. */
function sendFromPage(page: Page, method: string, target: string, body: unknown) {
  return page.evaluate(
    async ([verb, where, json]) => {
      const csrf = document.cookie
        .split('; ')
        .find((cookie) => cookie.startsWith('flotilla_csrf='))
        ?.slice('flotilla_csrf='.length);
      const response = await fetch(where, {
        method: verb,
        headers: { 'content-type': 'application/json', ...(csrf ? { 'X-CSRF-Token': csrf } : {}) },
        body: json,
      });
      return { status: response.status, body: (await response.json()) as { type?: string; detail?: string } };
    },
    [method, target, JSON.stringify(body)] as const,
  );
}

interface Account {
  readonly id: string;
  readonly globalPermissions: readonly string[];
}

const accountOf = (page: Page) =>
  page.evaluate(async () => (await fetch('/api/v1/account')).json() as Promise<Account>);

/**
 * Opens the sign-in page. Just after a sign-out the console may be on its way there itself (it noticed the session
 * end) and abort this navigation with its own, so an aborted one is tried again.
 */
async function openSignIn(page: Page, path = '/sign-in') {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await page.goto(url(path));
      return;
    } catch (error) {
      if (attempt === 3 || !String(error).includes('ERR_ABORTED')) throw error;
    }
  }
}

async function signInAtProvider(page: Page, login: string) {
  await openSignIn(page, '/sign-in?next=%2Faudit');
  await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
  // The provider's own pages: its login form the first time, its consent the first time; later its session
  // answers at once and the browser comes straight back.
  await page.waitForURL((current) => current.origin !== app.baseUrl || current.pathname === '/audit');
  if (new URL(page.url()).origin !== app.baseUrl) {
    const loginField = page.locator('input[name="login"]');
    if (await loginField.count()) {
      await loginField.fill(login);
      await page.locator('input[name="password"]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
    }
    await page.waitForURL((current) => current.origin !== app.baseUrl || current.pathname === '/audit');
    const consent = page.getByRole('button', { name: 'Continue' });
    if (new URL(page.url()).origin !== app.baseUrl && (await consent.count())) await consent.click();
  }
  await page.waitForURL(url('/audit')).catch(async (error: unknown) => {
    // What the browser shows instead (the provider's error page, or the sign-in page's error) says why.
    throw new Error(
      `${(error as Error).message}\nat ${page.url()}:\n${await page.locator('body').innerText()}\n${app.output().split('\n').slice(-15).join('\n')}`,
    );
  });
}

beforeAll(async () => {
  const port = await freePort();
  oidc = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/api/v1/auth/oidc/callback/corp`] });
  database = await createTestDatabase({ migrate: false });
  const providers = [
    {
      id: 'corp',
      label: 'Corp SSO',
      issuer: oidc.issuer,
      clientId: oidc.clientId,
      clientSecret: oidc.clientSecret,
      scopes: ['openid', 'profile', 'email', 'groups'],
    },
  ];
  app = await pool.startReady({
    port,
    env: {
      DATABASE_URL: database.url,
      ...BROWSER_ADMIN_ENV,
      FLOTILLA_OIDC_PROVIDERS: JSON.stringify(providers),
      // The test plays a reverse proxy on loopback, so its X-Forwarded-For names the client (docs/security.md).
      FLOTILLA_TRUSTED_PROXIES: '127.0.0.1,::1',
    },
  });
  adminHeaders = (await signInOverApi(app.baseUrl)).headers;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await pool.destroyAll();
  await oidc?.close();
  await database?.drop();
});

describe('OIDC sign-in', () => {
  it('lists the provider as a redirect provider and never shows its secret', async () => {
    const providers: unknown = await fetch(url('/api/v1/auth/providers')).then((response) => response.json());
    expect(providers).toEqual([
      { id: 'local', kind: 'credential', label: 'Flotilla account' },
      { id: 'corp', kind: 'redirect', label: 'Corp SSO', startPath: '/api/v1/auth/oidc/signin/corp' },
    ]);
    expect(app.output()).not.toContain(oidc?.clientSecret);
  });

  it('maps a group to a role on the Identity providers screen', async () => {
    const context = browser?.context;
    if (!context) throw new Error('no browser');
    // A retry finds the mappings its first attempt saved: the dialog would open with them and add two more.
    const before = await api('GET', '/api/v1/identity/providers/corp/group-mappings');
    if ((before.body.mappings as unknown[]).length > 0)
      expect(
        (
          await api('PUT', '/api/v1/identity/providers/corp/group-mappings', {
            defaultRoleId: before.body.defaultRoleId,
            mappings: [],
          })
        ).status,
      ).toBe(200);
    const session = await signInOverApi(app.baseUrl);
    await context.addCookies(session.cookies.map((cookie) => ({ ...cookie, url: app.baseUrl })));
    const page = await context.newPage();
    await page.goto(url('/admin/identity-providers'));
    await page.getByRole('heading', { name: 'Identity providers', level: 1 }).waitFor();
    const row = page.getByTestId('table-identity-providers').locator('tbody tr').filter({ hasText: 'Corp SSO' });
    await row.getByRole('button', { name: 'Edit group mappings of Corp SSO' }).click();
    const dialog = page.getByRole('dialog', { name: 'Group mappings: Corp SSO' });
    await dialog.getByRole('button', { name: 'Add mapping' }).click();
    await dialog.getByRole('textbox', { name: 'Group of mapping 1' }).fill('ops');
    await dialog.getByLabel('Role of mapping 1').click();
    await page.getByRole('option', { name: 'operator', exact: true }).click();
    await dialog.getByRole('button', { name: 'Add mapping' }).click();
    await dialog.getByRole('textbox', { name: 'Group of mapping 2' }).fill('platform');
    await dialog.getByLabel('Role of mapping 2').click();
    await page.getByRole('option', { name: 'admin', exact: true }).click();
    await saveScreenshot(page, 'identity-providers-mappings-light');
    await dialog.getByRole('button', { name: 'Save mappings' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const stored = await api('GET', '/api/v1/identity/providers/corp/group-mappings');
    // Which roles they give is proved by what olga may do below.
    expect(
      (stored.body.mappings as { groupName: string; scope: unknown }[]).map(({ groupName, scope }) => ({
        groupName,
        scope,
      })),
    ).toEqual([
      { groupName: 'ops', scope: { kind: 'GLOBAL' } },
      { groupName: 'platform', scope: { kind: 'GLOBAL' } },
    ]);
    await page.close();
    await context.clearCookies();
  });

  it('signs a person in at the provider as a just-in-time account whose group gives its permissions', async () => {
    // A retry finds olga signed in (here and at the provider), her sign-ins audited and her account disabled: it
    // starts signed out everywhere, with a person of its own.
    attempts.signIn += 1;
    const login = attempts.signIn === 1 ? 'olga' : `olga${String(attempts.signIn)}`;
    await browser?.context.clearCookies();
    oidc?.setGroups(login, ['ops']);
    const page = await (browser as Browser).newPage();
    await signInAtProvider(page, login);
    await page.getByRole('heading', { name: 'Audit log' }).first().waitFor();
    const account = await accountOf(page);
    expect(account).toMatchObject({ actor: login, username: login, provider: 'corp' });
    expect(account.globalPermissions).toContain('audit:read');
    expect(await fromPage(page, 'GET', '/api/v1/audit')).toBe(200); // operator: audit:read
    expect(await fromPage(page, 'GET', '/api/v1/identity/providers/corp/group-mappings')).toBe(403); // admin only
    const users = await api('GET', `/api/v1/audit?action=auth.sign-in&actor=${login}`);
    expect((users.body.items as { outcome: string }[]).map((row) => row.outcome)).toEqual(['SUCCEEDED']);

    // At the provider, olga leaves ops and joins platform; the next sign-in applies it.
    oidc?.setGroups(login, ['platform']);
    expect(await fromPage(page, 'POST', '/api/v1/auth/logout')).toBe(200);
    expect(await fromPage(page, 'GET', '/api/v1/audit')).toBe(401);
    await signInAtProvider(page, login);
    expect(await fromPage(page, 'GET', '/api/v1/identity/providers/corp/group-mappings')).toBe(200);
    const again = await accountOf(page);
    expect(again.id).toBe(account.id); // the same account, not a second one

    // A disabled account is refused even though the provider vouches for it (no users API yet: SQL).
    const sql = new pg.Client({ connectionString: database?.url });
    await sql.connect();
    await sql.query('UPDATE flotilla_user SET disabled = true WHERE id = $1', [account.id]);
    await sql.end();
    expect(await fromPage(page, 'POST', '/api/v1/auth/logout')).toBe(200);
    await openSignIn(page);
    await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await page.getByTestId('sign-in-error').waitFor();
    expect(new URL(page.url()).search).toBe('?error=sign-in-failed');
    expect(await fromPage(page, 'GET', '/api/v1/account')).toBe(401);
    await page.close();
  });

  it('asks an installer from the provider to sign in there again for a plugin change, not for a password', async () => {
    // A person of this attempt's own: a retry would find the first one's fresh sign-in.
    attempts.stepUp += 1;
    const login = attempts.stepUp === 1 ? 'ingrid' : `ingrid${String(attempts.stepUp)}`;
    const roles = await api('GET', '/api/v1/roles?q=installer');
    const installer = (roles.body.items as { id: string; name: string }[]).find((role) => role.name === 'installer');
    const current = await api('GET', '/api/v1/identity/providers/corp/group-mappings');
    const kept = (current.body.mappings as { groupName: string; roleId: string; scope: unknown }[])
      .filter((mapping) => mapping.groupName !== 'installers')
      .map(({ groupName, roleId, scope }) => ({ groupName, roleId, scope }));
    const mapped = await api('PUT', '/api/v1/identity/providers/corp/group-mappings', {
      defaultRoleId: current.body.defaultRoleId,
      mappings: [...kept, { groupName: 'installers', roleId: installer?.id, scope: { kind: 'GLOBAL' } }],
    });
    expect(mapped.status).toBe(200);
    oidc?.setGroups(login, ['installers']);
    await browser?.context.clearCookies();
    const page = await (browser as Browser).newPage();
    await signInAtProvider(page, login);
    const bytes = (await packPluginFolder(SAMPLE_PLUGIN)).bytes;
    const zip = path.join(tmpdir(), `flotilla-step-up-${String(attempts.stepUp)}.zip`);
    await writeFile(zip, bytes);
    const archive = Buffer.from(bytes).toString('base64');

    // Admin → Plugins asks this account for no password: it says how to step up at its provider instead.
    await page.goto(url('/admin/plugins'));
    const section = page.getByRole('region', { name: 'Upload' });
    await section.getByTestId('step-up-provider').waitFor();
    expect(await section.getByLabel('Your password').count()).toBe(0);
    /** Checks the archive (validated, nothing stored) and answers what the section then says: result or problem. */
    const checkOnly = async () => {
      await section.locator('input[type="file"]').setInputFiles(zip);
      await section.getByRole('button', { name: 'Check only', exact: true }).click();
      const said = section.getByTestId('plugin-upload-result').or(section.getByTestId('problem'));
      await said.waitFor();
      return said.innerText();
    };
    // Signed in a moment ago at the provider: that is the step-up.
    expect(await checkOnly()).toContain('Valid (nothing stored): naming-policy');

    // The same session six minutes on: too old to count.
    const account = await accountOf(page);
    const sql = new pg.Client({ connectionString: database?.url });
    await sql.connect();
    try {
      await sql.query(`UPDATE flotilla_session SET created_at = now() - interval '6 minutes' WHERE user_id = $1`, [
        account.id,
      ]);
    } finally {
      await sql.end();
    }
    await page.reload();
    expect(await checkOnly()).toMatch(/Step-up re-authentication required\s+Sign in again with corp/);
    // A password does not stand in for the provider.
    expect(
      await sendFromPage(page, 'POST', '/api/v1/plugins', { archive, dryRun: true, password: 'any password' }),
    ).toMatchObject({ status: 403, body: { type: 'step-up-required' } });
    await saveScreenshot(page, 'plugins-step-up-oidc-light');

    // The page's own link signs in at the provider again (its session answers at once) and comes back here.
    await section.getByRole('link', { name: 'Sign in again with corp' }).click();
    await page.waitForURL(url('/admin/plugins'));
    expect(await checkOnly()).toContain('Valid (nothing stored): naming-policy');
    expect(await sendFromPage(page, 'POST', '/api/v1/plugins', { archive, dryRun: true })).toMatchObject({
      status: 200,
      body: { id: 'naming-policy', dryRun: true },
    });
    await page.close();
    await rm(zip, { force: true });
  });

  it('fails an unknown provider at the callback like any failed sign-in, and throttles this path', async () => {
    // An address of this attempt's own: a retry's address would be throttled by its first attempt's failures.
    attempts.throttle += 1;
    const source = { 'x-forwarded-for': `203.0.113.${String(49 + attempts.throttle)}` };
    const callback = (provider: string) =>
      fetch(url(`/api/v1/auth/oidc/callback/${provider}?code=forged&state=forged`), {
        redirect: 'manual',
        headers: source,
      });
    const unknown = await callback('nowhere');
    expect([unknown.status, unknown.headers.get('location')]).toEqual([303, '/sign-in?error=sign-in-failed']);
    expect(unknown.headers.getSetCookie().some((cookie) => cookie.startsWith('flotilla_session='))).toBe(false);
    const failed = await api('GET', '/api/v1/audit?action=auth.sign-in&outcome=FAILED');
    expect(failed.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ parameters: { provider: 'nowhere' } })]),
    );

    expect((await api('PUT', '/api/v1/settings/security.sign-in.source-failures', { value: 3 })).status).toBe(200);
    // A forged state at a configured provider is a failure too; past three, the address must wait before the next.
    for (let attempt = 0; attempt < 3; attempt += 1)
      expect((await callback('corp')).headers.get('location')).toBe('/sign-in?error=sign-in-failed');
    const start = await fetch(url('/api/v1/auth/oidc/signin/corp'), { redirect: 'manual', headers: source });
    expect(start.headers.get('location')).toBe('/sign-in?error=sign-in-throttled');
    // Another address still reaches the provider.
    const elsewhere = await fetch(url('/api/v1/auth/oidc/signin/corp'), {
      redirect: 'manual',
      headers: { 'x-forwarded-for': '198.51.100.9' },
    });
    expect(elsewhere.headers.get('location')).toMatch(new RegExp(`^${oidc?.issuer}/auth\\?`));

    const page = await (browser as Browser).newPage();
    await page.goto(url('/sign-in?error=sign-in-throttled'));
    await page.getByTestId('sign-in-error').getByText('Too many failed sign-ins').waitFor();
    await saveScreenshot(page, 'sign-in-with-oidc-light');
    await page.close();
  });
});
