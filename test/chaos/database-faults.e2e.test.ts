// Issue 34's chaos on the database: Flotilla as `npm start` runs it, on a PostgreSQL of this file's own (the machine's
// is shared by every suite and cannot be restarted or filled), scraping one broker of its own. A restart of PostgreSQL
// and a full disk under it must cost answers for their duration only: a clear 503, never a 500, no lost audit row, no
// restart of Flotilla's processes. The file is an e2e one, not a broker one: it starts the app, which needs the
// production build only the e2e and browser projects make (build-global-setup.ts); its broker is its own.
import { execFileSync } from 'node:child_process';
import { mkdirSync, statfsSync } from 'node:fs';
import { chmod, mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/base/db/embedded-postgres.ts';
import { AppPool, type AppProcess, type ProcessInfo } from '@test/app-process.ts';
import { startSingleNode, type Topology } from '@test/artemis/index.ts';
import { queryDatabase } from '@test/database.ts';
import { eventually, sleep } from '@test/eventually.ts';
import { callRest, httpClient, type RestAnswer, type RestCall } from '@test/rest-call.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';

const TIER_A_MS = 500;
const TIER_B_MS = 500;
// Room for the cluster, the migrations and the scrape's first minutes; the full-disk test fills the rest.
const TMPFS_SIZE = '192m';

const dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-db-faults-'));
await chmod(dataDir, 0o755); // as root, PostgreSQL runs as `postgres`, which must enter it
// The cluster's own folder (clusterFolderFor): its log and credentials stay beside it, on the machine's disk.
const clusterDir = path.join(dataDir, 'postgres');
/**
 * A small tmpfs under the data folder makes "the disk is full" a file away. Mounting needs root (this machine and CI
 * run as root); elsewhere the full-disk test is skipped, saying so, and the restart runs on the plain folder.
 */
const onTmpfs = (() => {
  try {
    mkdirSync(clusterDir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE},mode=0700`, 'tmpfs', clusterDir], {
      stdio: 'pipe',
    });
    return true;
  } catch (error) {
    console.warn(`[database faults] cannot mount a tmpfs (${(error as Error).message}): the full-disk test is skipped`);
    return false;
  }
})();

const pool = new AppPool();
let port: number;
let database: EmbeddedDatabase | undefined;
let broker: Topology | undefined;
let app: AppProcess;
let api: RestCall;
let auth: AuthHeaders;

interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
}

/** The web and worker children of the supervisor right now. */
function children(): { web: ProcessInfo; worker: ProcessInfo } {
  const web = app.childRunning('web-main.mjs');
  const worker = app.childRunning('worker-main.mjs');
  if (!web || !worker) throw new Error('the web or the worker process is missing');
  return { web, worker };
}

const sameProcess = (info: ProcessInfo) => ({ pid: info.pid, startTime: info.startTime });

/** A refusal as the issue wants it: 503 problem+json, naming no internals (stack, SQL, driver, file, port). */
function expectCleanRefusal(answer: RestAnswer<unknown>, type: string): void {
  expect(answer.status, JSON.stringify(answer.json)).toBe(503);
  expect(answer.headers.get('content-type')).toContain('application/problem+json');
  const problem = answer.json as Problem;
  expect(problem.type).toBe(type);
  const text = JSON.stringify(problem);
  for (const internal of [
    /\bat \S+ \(/,
    /ECONNREFUSED/,
    /postgres/i,
    /prisma/i,
    /No space left/i,
    /base\/\d+/,
    new RegExp(`:${String(port)}\\b`),
  ]) {
    expect(text).not.toMatch(internal);
  }
}

/** A call that may not get an answer at all while PostgreSQL is down: the failure is returned, not thrown. */
async function attempt<T>(call: () => Promise<RestAnswer<T>>): Promise<RestAnswer<T> | Error> {
  try {
    return await call();
  } catch (error) {
    return error as Error;
  }
}

const putSetting = (key: string, value: string) => api('PUT', `/settings/${key}`, { value });

/** Sweep times of the broker's DLQ as its metric samples record them (tiers B and C both sample), oldest first. */
async function sampleTimes(): Promise<number[]> {
  const rows = await queryDatabase<{ ts: Date }>(
    (database as EmbeddedDatabase).url,
    `SELECT DISTINCT s.ts FROM metric_sample s JOIN queue_snapshot q ON q.id = s.queue_id
      WHERE q.queue_name = 'DLQ' ORDER BY s.ts`,
  );
  return rows.map((row) => row.ts.getTime());
}

async function auditRows(requestId: string): Promise<Array<{ outcome: string; action: string }>> {
  return queryDatabase(
    (database as EmbeddedDatabase).url,
    'SELECT outcome, action FROM audit_event WHERE request_id = $1',
    [requestId],
  );
}

beforeAll(async () => {
  port = await findFreePort();
  [database, broker] = await Promise.all([startEmbeddedPostgres(dataDir, port), startSingleNode()]);
  app = await pool.startReady({ env: { DATABASE_URL: database.url, FLOTILLA_INSTANCE_ID: 'db-faults' } });
  auth = await signIn((request) => fetch(request), app.baseUrl);
  api = httpClient(`${app.baseUrl}/api/v1`, auth);
  const node = broker.nodes[0];
  if (!node) throw new Error('no broker node');
  // Registered as a user would, then scraped twice a second.
  const registered = await api('POST', '/clusters', {
    name: 'db-faults',
    environment: 'lab',
    nodes: [{ managementUrl: node.managementUrl }],
    credentials: { username: node.user, password: node.password },
  });
  expect(registered.status, JSON.stringify(registered.json)).toBeLessThan(300);
  // Tier A is also the ownership tick: a cluster whose lock went with its connection is claimed again at the next.
  expect((await putSetting('scrape.tier-a-interval', `${TIER_A_MS}ms`)).status).toBe(200);
  expect((await putSetting('scrape.tier-b-interval', `${TIER_B_MS}ms`)).status).toBe(200);
  await eventually(
    'a few tier-B sweeps sampled',
    async () => ((await sampleTimes()).length >= 3 ? true : undefined),
    60_000,
  );
  // The app waits for the run's build of the web app (up to 5 minutes on a loaded machine) before it starts.
}, 420_000);

afterAll(async () => {
  await pool.destroyAll();
  await database?.stop().catch(() => undefined);
  await broker?.stop();
  if (onTmpfs) execFileSync('umount', ['--lazy', clusterDir]);
  await rm(dataDir, { recursive: true, force: true });
});

describe('a PostgreSQL restart', () => {
  it('answers 503 while it is down, loses no audit row, and the same processes carry on after it', async () => {
    const before = children();
    // An audited write just before the restart must still be there after it.
    const written = await putSetting('scrape.tier-c-interval', '2m');
    expect(written.status).toBe(200);
    const writtenId = written.headers.get('x-request-id') ?? '';

    // A connection the worker holds out of its pool when the restart ends it (here: a sweep's write waiting on a
    // lock) must fail that write, not the process.
    const holder = new pg.Client({ connectionString: (database as EmbeddedDatabase).url });
    holder.on('error', () => undefined); // ended by the restart below
    await holder.connect();
    const lockedAt = Date.now(); // from here the worker cannot write: the outage, as the scrape sees it
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE scrape_sweep IN ACCESS EXCLUSIVE MODE');
    await eventually(
      'a worker write waiting on the lock',
      async () =>
        (
          await holder.query(
            `SELECT 1 FROM pg_stat_activity WHERE application_name = 'flotilla-worker' AND wait_event_type = 'Lock'`,
          )
        ).rowCount
          ? true
          : undefined,
      10_000,
    ).catch(async (error: unknown) => {
      await holder.end(); // the lock must not outlive a failed wait
      throw error;
    });

    const downAt = Date.now();
    await (database as EmbeddedDatabase).stop();
    // What the outage answers is asserted once PostgreSQL is back: a failed check must not leave it down.
    let outage: Array<RestAnswer<unknown> | Error>;
    try {
      await holder.end().catch(() => undefined);
      outage = [
        await attempt(() => api('GET', '/clusters')),
        // The console's own edge too: tRPC answers the same problem.
        await attempt(() =>
          callRest(fetch, auth, 'GET', '/jobs.list', undefined, { baseUrl: `${app.baseUrl}/api/trpc` }),
        ),
        await attempt(() => putSetting('scrape.tier-c-interval', '3m')),
      ];
      await sleep(2_000); // an outage of a few seconds, as a real restart is
    } finally {
      database = await startEmbeddedPostgres(dataDir, port);
    }
    const upAt = Date.now();
    const [read, consoleRead, refusedWrite] = outage.map((answer) => {
      if (answer instanceof Error) throw answer;
      return answer;
    }) as [RestAnswer<unknown>, RestAnswer<unknown>, RestAnswer<unknown>];
    expectCleanRefusal(read, 'service-unavailable');
    expectCleanRefusal(consoleRead, 'service-unavailable');
    expectCleanRefusal(refusedWrite, 'service-unavailable');
    const answered = await eventually(
      'a read answered again',
      async () => ((await api('GET', '/clusters')).status === 200 ? Date.now() : undefined),
      30_000,
      200,
    );
    // Both processes listen on the bus again (their LISTEN connections are back) …
    await eventually(
      'the web and worker bus connections back',
      async () => {
        const rows = await queryDatabase<{ application_name: string }>(
          (database as EmbeddedDatabase).url,
          `SELECT DISTINCT application_name FROM pg_stat_activity WHERE application_name LIKE 'flotilla-%-bus' AND query LIKE 'LISTEN%'`,
        );
        return rows.length === 2 ? true : undefined;
      },
      30_000,
      200,
    );
    const busBackAt = Date.now();
    // … and a setting changed in the web process reaches the worker through it: tier B is re-timed.
    expect((await putSetting('scrape.tier-b-interval', '400ms')).status).toBe(200);
    await eventually(
      'the worker re-timing tier B',
      async () => {
        const rows = await queryDatabase<{ interval_ms: number }>(
          (database as EmbeddedDatabase).url,
          `SELECT interval_ms FROM scrape_sweep WHERE tier = 'B' AND last_completed_at > now() - interval '1 second'`,
        );
        return rows[0]?.interval_ms === 400 ? true : undefined;
      },
      10_000,
      200,
    );
    // Nothing was restarted: the same web and worker (pid and start time) as before.
    const after = children();
    expect(sameProcess(after.web)).toEqual(sameProcess(before.web));
    expect(sameProcess(after.worker)).toEqual(sameProcess(before.worker));

    // The audit row written before is there; the refused write left none, not even a PENDING one.
    expect(await auditRows(writtenId)).toEqual([{ outcome: 'SUCCEEDED', action: expect.any(String) as unknown }]);
    expect(await auditRows(refusedWrite.headers.get('x-request-id') ?? 'none')).toEqual([]);

    // No sweep lost for longer than the outage, the ownership tick that claims the cluster again and one tier-B
    // interval (and two seconds' slack for two loaded cores).
    const outageMs = upAt - lockedAt;
    const times = (await sampleTimes()).filter((time) => time >= lockedAt - 5_000);
    const gaps = times.slice(1).map((time, index) => time - (times[index] as number));
    console.log(
      `[database faults] PostgreSQL down ${String(upAt - downAt)} ms (writes stopped ${String(outageMs)} ms); reads back ${String(answered - upAt)} ms and the bus ${String(busBackAt - upAt)} ms after PostgreSQL; longest sample gap ${String(Math.max(...gaps))} ms`,
    );
    expect(times.some((time) => time > upAt)).toBe(true);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(outageMs + TIER_A_MS + TIER_B_MS + 2_000);
  });
});

describe('a full disk under PostgreSQL', () => {
  // Mounting a tmpfs needs root: without it the disk cannot be filled without filling the machine's.
  it.skipIf(!onTmpfs)(
    'refuses writes with a 503 storage-full, keeps answering reads, and writes again once there is room',
    async () => {
      const before = children();
      const filler = path.join(clusterDir, 'filler');
      const { bavail, bsize } = statfsSync(clusterDir);
      execFileSync('fallocate', ['-l', String(bavail * bsize), filler]);
      try {
        // PostgreSQL writes into pages it already has until one must grow: a few writes may still land. The first one
        // refused must be refused cleanly, and none may answer 500.
        let refusal: RestAnswer<unknown> | undefined;
        for (let index = 0; index < 200 && !refusal; index++) {
          const answer = await putSetting('scrape.tier-c-interval', `${String(3 + (index % 50))}m`);
          if (answer.status !== 200) refusal = answer;
        }
        if (!refusal) throw new Error('200 writes landed on a full disk');
        expectCleanRefusal(refusal, 'storage-full');
        // Refused before its audit row could be written: no row, not even a PENDING one.
        expect(await auditRows(refusal.headers.get('x-request-id') ?? 'none')).toEqual([]);
        expect((await api('GET', '/clusters')).status).toBe(200);
      } finally {
        await unlink(filler);
      }
      await eventually(
        'a write landing again',
        async () => ((await putSetting('scrape.tier-c-interval', '5m')).status === 200 ? true : undefined),
        20_000,
        500,
      );
      const after = children();
      expect(sameProcess(after.web)).toEqual(sameProcess(before.web));
      expect(sameProcess(after.worker)).toEqual(sameProcess(before.worker));
    },
  );
});
