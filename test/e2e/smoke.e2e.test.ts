// End-to-end smoke suite: Flotilla started as `npm start` starts it (supervisor → embedded or external PostgreSQL,
// migrations, module check, web and worker children), talked to over HTTP on 127.0.0.1 only. One instance is
// shared by the checks that can share it; each describe block cleans up after itself even when a check fails.
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readMigrations } from '../../src/base/db/migrate.ts';
import {
  AppPool,
  descendantsOf,
  environmentOf,
  freePort,
  isAlive,
  processesWithArgument,
  SseClient,
  type AppProcess,
  type ProcessInfo,
} from '@test/app-process.ts';
import { eventually, sleep } from '@test/eventually.ts';
import { createTestDatabase, type TestDatabase, queryDatabase } from '@test/database.ts';
import { signIn, TEST_ADMIN, type AuthHeaders } from '@test/sign-in.ts';
import { httpClient } from '@test/rest-call.ts';

const INSTALLATION_SCOPE = '00000000-0000-0000-0000-000000000000';
const KERNEL_MODULES = ['core', 'plugin', 'settings', 'audit', 'jobs', 'stream'];
const SWEEP_INTERVAL = 'audit.retention-sweep-interval';

interface HttpResult<Body> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Body;
}

const sessions = new WeakMap<AppProcess, Promise<AuthHeaders>>();

/** The test admin's session on this app, signed in on first use. */
function authOf(app: AppProcess): Promise<AuthHeaders> {
  let session = sessions.get(app);
  if (!session) {
    session = signIn((request) => fetch(request), app.baseUrl);
    sessions.set(app, session);
  }
  return session;
}

/** A process's resident memory in KiB, from /proc. */
function residentKib(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
}

/** The admin's call on this app over HTTP; `body` is the parsed answer. */
async function call<Body>(
  app: AppProcess,
  pathAndQuery: string,
  { method = 'GET', body, headers }: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpResult<Body>> {
  const answer = await httpClient(app.baseUrl, await authOf(app))<Body>(method, pathAndQuery, body, headers);
  return { status: answer.status, headers: answer.headers, body: answer.json };
}

function putSetting<Body = SettingChange>(
  app: AppProcess,
  key: string,
  value: unknown,
  options: { requestId?: string; query?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.requestId) headers['X-Request-Id'] = options.requestId;
  return call<Body>(app, `/api/v1/settings/${key}${options.query ?? ''}`, {
    method: 'PUT',
    headers,
    body: { value },
  });
}

interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly requestId?: string;
  readonly rule?: string;
  readonly errors?: { field: string; message: string }[];
}

interface SettingView {
  readonly key: string;
  readonly value: unknown;
  readonly source: string;
}

interface SettingChange {
  readonly key: string;
  readonly previousValue: unknown;
  readonly value: unknown;
  readonly dryRun: boolean;
  readonly setting: SettingView;
}

interface JobView {
  readonly id: string;
  readonly module: string;
  readonly instanceId: string;
  readonly intervalMs: number | null;
  readonly lastFinishedAt: string | null;
  readonly lastOutcome: string | null;
}

interface Health {
  readonly status: string;
  readonly instanceId: string;
  readonly components: Record<string, { status: string; details?: { jobs?: Record<string, unknown> } }>;
}

async function retentionJob(app: AppProcess): Promise<JobView> {
  const { status, body } = await call<{ items: JobView[] }>(app, '/api/v1/system/jobs');
  expect(status).toBe(200);
  const job = body.items.find((item) => item.id === 'audit.retention');
  if (!job) throw new Error(`audit.retention is not listed: ${JSON.stringify(body)}`);
  return job;
}

async function readSetting(app: AppProcess, key: string): Promise<SettingView> {
  const { status, body } = await call<SettingView>(app, `/api/v1/settings/${key}`);
  expect(status).toBe(200);
  return body;
}

/** Waits until none of the given processes runs any more; returns those that still do. */
async function survivors(processes: readonly ProcessInfo[], graceMs = 5_000): Promise<ProcessInfo[]> {
  const deadline = Date.now() + graceMs;
  let alive = processes.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await sleep(100);
    alive = alive.filter(isAlive);
  }
  return alive;
}

const describeTree = (processes: readonly ProcessInfo[]) => processes.map((info) => `${info.pid} ${info.args}`);

describe('npm start with DATABASE_URL', () => {
  const pool = new AppPool();
  let database: TestDatabase;
  let app: AppProcess;
  const instanceId = `e2e-a-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    // The tests play a trusted proxy in front of the first instance (its X-Request-Id is believed); the second
    // instance trusts no proxy.
    app = await pool.startReady({
      env: { DATABASE_URL: database.url, FLOTILLA_INSTANCE_ID: instanceId, FLOTILLA_TRUSTED_PROXIES: '127.0.0.1,::1' },
    });
  });

  afterAll(async () => {
    await pool.destroyAll();
    await (database as TestDatabase | undefined)?.drop(); // undefined when its creation failed
  });

  it('migrates the fresh database itself and announces where it listens', async () => {
    const migrations = await readMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    const history = await queryDatabase<{ migration_name: string }>(
      database.url,
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name',
    );
    expect(history.map((row) => row.migration_name)).toEqual(migrations.map((migration) => migration.name));
    const first = migrations[0]?.name ?? '';
    expect(app.findLog({ process: 'supervisor', module: 'migrate', migration: first })).toMatchObject({
      level: 'info',
      msg: `applied ${first}`,
    });
    expect(app.findLog({ process: 'supervisor', msg: /^ready: / })).toMatchObject({
      msg: `ready: http://127.0.0.1:${app.port}/ (instance ${instanceId})`,
      url: `http://127.0.0.1:${app.port}/`,
      instanceId,
    });
  });

  it('writes one JSON log line per event on standard output, each with level, time, process and module', () => {
    // The supervisor passes its children's output through untouched: no line is cut, merged or prefixed.
    const lines = app.stdoutLines();
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
    for (const line of app.logLines()) {
      expect(line).toMatchObject({
        level: expect.stringMatching(/^(trace|debug|info|warn|error|fatal)$/) as unknown,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
        process: expect.stringMatching(/^(supervisor|web|worker|database)$/) as unknown,
        module: expect.any(String) as unknown,
      });
    }
    const processes = new Set(app.logLines().map((line) => line.process));
    expect([...processes].sort()).toEqual(['supervisor', 'web', 'worker']);
  });

  it('lists the kernel modules, enabled, with their enabling property and the permission catalogue', async () => {
    const { status, body } = await call<{
      modules: { id: string; enabled: boolean; enablingProperty: string; layer: string }[];
      permissions: { id: string; module: string; enabled: boolean }[];
    }>(app, '/api/v1/manifest');
    expect(status).toBe(200);
    for (const id of KERNEL_MODULES) {
      expect(
        body.modules.find((module) => module.id === id),
        id,
      ).toMatchObject({
        enabled: true,
        layer: 'kernel',
        enablingProperty: `flotilla.features.${id}.enabled`,
      });
    }
    expect(body.permissions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'settings:read', module: 'settings', enabled: true }),
        expect.objectContaining({ id: 'settings:write', module: 'settings', enabled: true }),
        expect.objectContaining({ id: 'audit:read', module: 'audit', enabled: true }),
        expect.objectContaining({ id: 'jobs:read', module: 'jobs', enabled: true }),
      ]),
    );
  });

  it('serves an OpenAPI 3 document with the kernel paths', async () => {
    const { status, headers, body } = await call<{ openapi: string; paths: Record<string, Record<string, unknown>> }>(
      app,
      '/api/v1/openapi.json',
    );
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.openapi).toMatch(/^3\./);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/settings/{key}', '/audit', '/system/jobs', '/manifest']),
    );
    expect(Object.keys(body.paths['/settings/{key}'] ?? {})).toEqual(expect.arrayContaining(['get', 'put']));
  });

  it('reports health with a jobs component and lists the audit.retention job', async () => {
    const health = await call<Health>(app, '/actuator/health/flotilla');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('UP');
    expect(health.body.instanceId).toBe(instanceId);
    expect(health.body.components.jobs?.status).toBe('UP');
    expect(Object.keys(health.body.components.jobs?.details?.jobs ?? {})).toContain('audit.retention');

    const job = await retentionJob(app);
    expect(job).toMatchObject({ module: 'audit', instanceId, intervalMs: 3_600_000 });
  });

  it('answers an unknown /api/v1 route with a problem+json 404 carrying a request id', async () => {
    const { status, headers, body } = await call<Problem>(app, '/api/v1/no-such-route');
    expect(status).toBe(404);
    expect(headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(body).toMatchObject({ type: 'not-found', status: 404 });
    expect(body.requestId).toMatch(/^[A-Za-z0-9._:-]+$/);
    expect(headers.get('x-request-id')).toBe(body.requestId);
  });

  it('serves GET /metrics to no one by default (403 problem+json), then to an allowlisted address', async () => {
    const refused = await fetch(`${app.baseUrl}/metrics`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refused.json()).toMatchObject({ type: 'forbidden', status: 403, instance: '/metrics' });
    expect((await putSetting(app, 'telemetry.allowed-addresses', '127.0.0.1, ::1')).status).toBe(200);
    const admitted = await eventually(
      'the allowlist in effect in the web process',
      async () => {
        const answer = await fetch(`${app.baseUrl}/metrics`);
        return answer.status === 200 ? answer : undefined;
      },
      5_000,
    );
    expect(admitted.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await admitted.text();
    expect(text).toMatch(/^flotilla_clusters 0$/m);
    expect(text).toMatch(/^flotilla_stream_subscribers \d+$/m);
    expect((await putSetting(app, 'telemetry.allowed-addresses', '')).status).toBe(200);
  });

  it('refuses an invalid setting value with an invalid-setting problem naming the rule', async () => {
    const { status, headers, body } = await putSetting<Problem>(app, SWEEP_INTERVAL, '0s');
    expect(status).toBe(400);
    expect(headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(body.type).toBe('invalid-setting');
    expect(body.rule).toMatch(/from 1s to 1d/);
    expect(body.detail).toContain(body.rule ?? '<no rule>');
    expect(body.errors).toEqual([{ field: 'value', message: `must be ${body.rule ?? ''}` }]);
    expect((await readSetting(app, SWEEP_INTERVAL)).value).toBe('1h');
  });

  it('changes nothing on a dry run, and carries a trusted proxy’s X-Request-Id into the response and the audit row', async () => {
    const dryRun = await putSetting(app, 'audit.retention', '400d', { query: '?dryRun=true' });
    expect(dryRun.status).toBe(200);
    expect(dryRun.body).toMatchObject({ dryRun: true, previousValue: '365d', value: '400d' });
    expect((await readSetting(app, 'audit.retention')).value).toBe('365d');

    const requestId = `e2e-${randomUUID()}`;
    const change = await putSetting(app, 'audit.retention', '400d', { requestId });
    expect(change.status).toBe(200);
    expect(change.headers.get('x-request-id')).toBe(requestId);
    expect(change.body).toMatchObject({ key: 'audit.retention', dryRun: false, previousValue: '365d', value: '400d' });
    expect((await readSetting(app, 'audit.retention')).value).toBe('400d');

    const audit = await call<{
      items: {
        requestId: string;
        action: string;
        target: string;
        outcome: string;
        dryRun: boolean;
        parameters: unknown;
      }[];
    }>(app, `/api/v1/audit?q=${encodeURIComponent(requestId)}`);
    expect(audit.status).toBe(200);
    expect(audit.body.items).toEqual([
      expect.objectContaining({
        requestId,
        action: 'setting.update',
        target: 'audit.retention',
        outcome: 'SUCCEEDED',
        dryRun: false,
        parameters: { from: '365d', to: '400d' },
      }),
    ]);
  });

  it('lets the worker see a settings change and delivers its signal through the database bus to a stream client', async () => {
    const stream = await SseClient.open(
      `${app.baseUrl}/api/v1/stream?clusterId=${INSTALLATION_SCOPE}&topics=health,unknowntopic`,
      await authOf(app),
    );
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
      const ready = await stream.waitFor('the ready event', () => true, 10_000);
      expect(ready.event).toBe('ready');
      expect(JSON.parse(ready.data)).toEqual({ topics: ['health'], dropped: [1], keepAliveMs: 20_000 });

      expect((await retentionJob(app)).intervalMs).toBe(3_600_000);
      const changedAt = Date.now();
      const change = await putSetting(app, SWEEP_INTERVAL, '1s');
      expect(change.status).toBe(200);

      // The interval is recorded by the worker's scheduler when it re-times the job: the worker saw the setting.
      await eventually(
        'the worker to re-time audit.retention to 1 s',
        async () => ((await retentionJob(app)).intervalMs === 1_000 ? true : undefined),
        5_000,
      );

      // Health signals come only from the worker (after each job run). With the old 1 h interval at most one run
      // could fall after the change; two prove the job now runs every second and its signals reach this client.
      const signalsAfterChange = () =>
        stream.messages.filter((message) => {
          if (message.event !== 'health') return false;
          const signal = JSON.parse(message.data) as { topic: string; clusterId: string; ts: string };
          return (
            signal.topic === 'health' && signal.clusterId === INSTALLATION_SCOPE && Date.parse(signal.ts) >= changedAt
          );
        });
      await eventually(
        'two health signals published after the change',
        () => (signalsAfterChange().length >= 2 ? true : undefined),
        8_000,
      );
      expect(signalsAfterChange().every((message) => message.receivedAt >= changedAt)).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it('serves every page and answer with the security headers, and no API answer may be cached', async () => {
    for (const pathAndQuery of ['/', '/sign-in', '/api/v1/account', '/api/v1/no-such-thing']) {
      const { headers } = await fetch(`${app.baseUrl}${pathAndQuery}`, { headers: await authOf(app) });
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('referrer-policy')).toBe('same-origin');
      if (pathAndQuery.startsWith('/api/')) expect(headers.get('cache-control')).toBe('no-store');
    }
  });

  it('refuses eight parallel anonymous 50 MB bodies by their length, with 413 and no growth of the web process', async () => {
    const web = descendantsOf(app.pid).find((info) => info.args.includes('web-main.mjs'));
    if (!web) throw new Error('no web process');
    const body = Buffer.alloc(50 * 1024 * 1024);
    const post = () =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          `${app.baseUrl}/api/v1/auth/login`,
          { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
            request.destroy();
          },
        );
        // The server may answer and close before the whole body is written; the status is what counts.
        request.on('error', (error) => (request.writableEnded ? undefined : reject(error)));
        request.end(body);
      });
    const before = residentKib(web.pid);
    expect(await Promise.all(Array.from({ length: 8 }, post))).toEqual(Array(8).fill(413));
    expect(residentKib(web.pid) - before).toBeLessThan(100 * 1024);
  });

  it('refuses a stream for a cluster the caller cannot see with the cluster guard’s 404, echoing no id', async () => {
    const unknown = randomUUID();
    const response = await fetch(`${app.baseUrl}/api/v1/stream?clusterId=${unknown}&topics=health`, {
      headers: await authOf(app),
    });
    expect(response.status).toBe(404);
    const body = await response.text();
    expect(JSON.parse(body)).toMatchObject({ type: 'cluster-not-found', status: 404 });
    expect(body).not.toContain(unknown);
  });

  describe('with a second instance on the same database', () => {
    let second: AppProcess;
    const secondId = `e2e-b-${randomUUID().slice(0, 8)}`;

    beforeAll(async () => {
      second = await pool.startReady({ env: { DATABASE_URL: database.url, FLOTILLA_INSTANCE_ID: secondId } });
    });

    afterAll(async () => {
      await (second as AppProcess | undefined)?.destroy(); // undefined when it never started
    });

    it('replaces the X-Request-Id of a client that is not a trusted proxy with its own', async () => {
      const chosen = `client-${randomUUID()}`;
      const change = await putSetting(second, 'audit.retention', '401d', { requestId: chosen, query: '?dryRun=true' });
      expect(change.status).toBe(200);
      expect(change.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(change.headers.get('x-request-id')).not.toBe(chosen);
      const audit = await call<{ total: number }>(second, `/api/v1/audit?q=${encodeURIComponent(chosen)}`);
      expect(audit.body.total).toBe(0);
    });

    it('runs both instances healthy and shows a change made through one on the other within two seconds', async () => {
      expect(second.port).not.toBe(app.port);
      for (const [instance, id] of [
        [app, instanceId],
        [second, secondId],
      ] as const) {
        const health = await call<Health>(instance, '/actuator/health/flotilla');
        expect(health.status).toBe(200);
        expect(health.body.instanceId).toBe(id);
        expect(health.body.status).toBe('UP');
      }
      // Read first on B, so B's settings are loaded and the new value can only arrive through the bus.
      expect((await readSetting(second, 'stream.keep-alive')).value).toBe('20s');
      const change = await putSetting(app, 'stream.keep-alive', '25s');
      expect(change.status).toBe(200);
      const changedAt = Date.now();
      const seen = await eventually(
        'instance B to see stream.keep-alive=25s',
        async () => {
          const view = await readSetting(second, 'stream.keep-alive');
          return view.value === '25s' ? view : undefined;
        },
        2_000,
        50,
      );
      expect(seen.source).toBe('database');
      expect(Date.now() - changedAt).toBeLessThan(2_500);
    });
  });

  it('restarts a worker killed with SIGKILL, and its jobs keep running', async () => {
    const worker = await eventually('the worker child', () => app.childRunning('worker-main.mjs'), 5_000);
    // The build's bundle in plain Node (ADR 39): no TypeScript loader in a child.
    expect(worker.args).toContain('.next/flotilla/worker-main.mjs');
    expect(worker.args).not.toContain('tsx');
    const killedAt = Date.now();
    process.kill(worker.pid, 'SIGKILL');

    await app.waitForLog({ process: 'supervisor', child: 'worker', signal: 'SIGKILL', msg: /restarting in/ }, 10_000);
    const replacement = await eventually(
      'a new worker child',
      () => {
        const candidate = app.childRunning('worker-main.mjs');
        return candidate && candidate.pid !== worker.pid ? candidate : undefined;
      },
      15_000,
    );
    expect(isAlive(worker)).toBe(false);
    expect(replacement.ppid).toBe(app.pid);

    // The sweep interval is 1 s since the stream check, so a live worker finishes a run every second or so.
    const resumedAt = Date.now();
    const job = await eventually(
      'audit.retention to finish a run after the restart',
      async () => {
        const view = await retentionJob(app);
        return view.lastFinishedAt && Date.parse(view.lastFinishedAt) > resumedAt ? view : undefined;
      },
      20_000,
      200,
    );
    expect(job.lastOutcome).toMatch(/^(SUCCEEDED|SKIPPED)$/);
    expect(Date.parse(job.lastFinishedAt ?? '')).toBeGreaterThan(killedAt);
    expect(app.childRunning('worker-main.mjs')?.pid).toBe(replacement.pid);
  });

  it('stops web, then worker, on SIGTERM, exits 0 and leaves no process behind', async () => {
    const running = app.track();
    expect(running.some((info) => info.args.includes('web-main.mjs'))).toBe(true);
    expect(running.some((info) => info.args.includes('worker-main.mjs'))).toBe(true);
    const everySeen = app.seenDescendants();

    const exit = await app.stop(30_000);
    expect(exit).toEqual({ code: 0, signal: null });
    const stopping = app.indexOfLog({ process: 'supervisor', reason: 'SIGTERM', msg: /^stopping/ });
    expect(stopping).toBeGreaterThan(-1);
    const webDown = app.indexOfLog({ process: 'web', msg: /shutting down/ }, stopping);
    const workerDown = app.indexOfLog({ process: 'worker', msg: /shutting down/ }, stopping);
    expect(webDown).toBeGreaterThan(stopping);
    expect(workerDown).toBeGreaterThan(webDown);
    expect(app.indexOfLog({ process: 'supervisor', msg: 'stopped' }, workerDown)).toBeGreaterThan(workerDown);
    expect(describeTree(await survivors(everySeen))).toEqual([]);
  });
});

describe('npm start with the embedded database', () => {
  const pool = new AppPool();
  let dataDir: string;

  // A fresh folder per attempt, so a retry starts from nothing as the first attempt did.
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-e2e-data-'));
    // As root the embedded server runs as the `postgres` user, which must be able to enter the data directory.
    await chmod(dataDir, 0o755);
  });

  afterEach(async () => {
    await pool.destroyAll();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function stopCleanly(app: AppProcess): Promise<void> {
    const everySeen = app.seenDescendants();
    expect(everySeen.some((info) => info.args.includes(dataDir))).toBe(true); // the postmaster, while it ran
    expect(await app.stop(30_000)).toEqual({ code: 0, signal: null });
    expect(describeTree(await survivors(everySeen))).toEqual([]);
    expect(describeTree(processesWithArgument(dataDir))).toEqual([]);
  }

  it('starts its own PostgreSQL, keeps the data across a restart and leaves nothing running', async () => {
    const databasePort = await freePort();
    const first = await pool.startReady({
      env: { FLOTILLA_DATA_DIR: dataDir, FLOTILLA_EMBEDDED_DB_PORT: String(databasePort) },
    });
    expect(first.findLog({ process: 'supervisor', msg: /^embedded PostgreSQL running/ })).toMatchObject({
      folder: path.join(dataDir, 'postgres'),
    });
    expect(first.findLog({ process: 'database', msg: 'creating the embedded PostgreSQL' })).toBeDefined();
    // The bootstrap password is used once, by the supervisor: no child (web, worker, database, PostgreSQL) has it.
    const children = descendantsOf(first.pid);
    expect(children.length).toBeGreaterThanOrEqual(4);
    const holding = children.filter((info) => environmentOf(info.pid).includes(TEST_ADMIN.password));
    expect(holding.map((info) => info.args)).toEqual([]);
    const health = await call<Health>(first, '/actuator/health/flotilla');
    expect(health.status).toBe(200);
    expect(health.body.components.jobs?.status).toBe('UP');
    // The web's and the worker's connections use a role that is no superuser; the superuser only set it up.
    const superuser = JSON.parse(readFileSync(path.join(dataDir, 'postgres-credentials.json'), 'utf8')) as {
      user: string;
      password: string;
    };
    const connections = await queryDatabase(
      `postgresql://${superuser.user}:${encodeURIComponent(superuser.password)}@127.0.0.1:${databasePort}/flotilla`,
      `SELECT DISTINCT a.usename AS role, r.rolsuper AS superuser FROM pg_stat_activity a
         JOIN pg_roles r ON r.rolname = a.usename WHERE a.application_name IN ('flotilla-web', 'flotilla-worker')`,
    );
    expect(connections).toEqual([{ role: 'flotilla_app', superuser: false }]);
    const change = await putSetting(first, 'audit.retention', '123d');
    expect(change.status).toBe(200);
    expect(change.body.setting.value).toBe('123d');
    await stopCleanly(first);

    const second = await pool.startReady({ env: { FLOTILLA_DATA_DIR: dataDir } });
    expect(second.findLog({ process: 'database', msg: 'creating the embedded PostgreSQL' })).toBeUndefined();
    expect(await readSetting(second, 'audit.retention')).toMatchObject({ value: '123d', source: 'database' });
    await stopCleanly(second);
  });

  // Only root runs PostgreSQL as another user (postgres), so only root can meet a private parent folder.
  it.skipIf(process.getuid?.() !== 0)(
    'starts as root with the data folder under a private (0700) parent, saying where PostgreSQL keeps its data',
    async () => {
      const privateParent = await mkdtemp(path.join(tmpdir(), 'flotilla-e2e-private-'));
      await chmod(privateParent, 0o700);
      const privateData = path.join(privateParent, '.data');
      try {
        const app = await pool.startReady({ env: { FLOTILLA_DATA_DIR: privateData } });
        const said = /is not reachable by the postgres user .*keeps its data in (\S+)$/.exec(
          app.findLog({ process: 'database', msg: /is not reachable by the postgres user/ })?.msg ?? '',
        );
        expect(said?.[1]).toMatch(/^\/var\/lib\/flotilla\/[0-9a-f]{12}\/postgres$/);
        expect((await call<Health>(app, '/actuator/health/flotilla')).status).toBe(200);
        expect(await app.stop(30_000)).toEqual({ code: 0, signal: null });
        await rm(path.dirname(said?.[1] ?? '/nonexistent'), { recursive: true, force: true });
      } finally {
        await rm(privateParent, { recursive: true, force: true });
      }
    },
  );
});

describe('npm start refusing a bad module toggle', () => {
  const pool = new AppPool();
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await pool.destroyAll();
    await (database as TestDatabase | undefined)?.drop(); // undefined when its creation failed
  });

  it('exits non-zero naming flotilla.features.audit.enabled when the audit kernel module is turned off', async () => {
    const app = await pool.start({ env: { DATABASE_URL: database.url, FLOTILLA_FEATURES_AUDIT_ENABLED: 'false' } });
    const exit = await app.waitForExit(120_000);
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(app.output()).toContain('flotilla.features.audit.enabled');
    expect(app.findLog({ process: 'supervisor', msg: /^ready: / })).toBeUndefined();
    expect(app.findLog({ process: 'web', msg: /^listening/ })).toBeUndefined();
    expect(describeTree(await survivors(app.seenDescendants()))).toEqual([]);
  });
});
