// The scheduler against a real PostgreSQL: status rows, health signals on the bus, re-timing when the interval
// setting changes in another process, the advisory lock of exclusive jobs, failures and a clean stop.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDatabaseBus, type DatabaseBus } from '@/base/db/bus.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { installedModules } from '@/installation/modules.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { systemContext } from '@/modules/kernel/core/index.ts';
import {
  defineModule,
  durationSetting,
  type JobContext,
  type JobResult,
  resolveModules,
} from '@/modules/kernel/plugin/index.ts';
import {
  createSettingsStore,
  loadAndFollowSettings,
  type SettingsStore,
  updateSetting,
} from '@/modules/kernel/settings/index.ts';
import { INSTALLATION_SCOPE_ID, parseSignal, STREAM_CHANNEL } from '@/modules/kernel/stream/index.ts';
import { Scheduler, type ScheduledJob } from './scheduler.ts';
import { captureLogLines } from '@test/log-lines.ts';

// A fixture feature declaring the interval settings the fixture jobs run on; one key per test, so a change made
// by one test cannot re-time another's job.
const interval = (key: string, defaultValue: string) =>
  durationSetting({ key, description: `fixture interval ${key}`, defaultValue, min: '100ms', max: '1d' });
const fast = interval('housekeeping.fast', '1s');
const housekeeping = defineModule({
  id: 'housekeeping',
  title: 'Housekeeping',
  layer: 'feature',
  description: 'Fixture feature with scheduled jobs',
  requires: ['jobs'],
  settings: [
    fast,
    interval('housekeeping.retimed', '1h'),
    interval('housekeeping.exclusive', '1h'),
    interval('housekeeping.failing', '400ms'),
  ],
});
const modules = [...installedModules, housekeeping];

interface Process {
  readonly db: Database;
  readonly bus: DatabaseBus;
  readonly settings: SettingsStore;
}

let database: TestDatabase;
const processes: Process[] = [];
const schedulers: Scheduler[] = [];
let worker: Process;

async function openProcess(name: string, poolSize = 4): Promise<Process> {
  const db = openDatabase(database.url, { poolSize, applicationName: name });
  const bus = createDatabaseBus(database.url, db.pool, name);
  const settings = createSettingsStore(resolveModules(modules, { environment: {}, stored: new Map() }), {});
  processes.push({ db, bus, settings });
  await loadAndFollowSettings(settings, db, bus);
  await bus.ready();
  return { db, bus, settings };
}

function job(
  id: string,
  everySetting: string,
  run: (context: JobContext) => Promise<JobResult>,
  exclusive = false,
): ScheduledJob {
  return {
    id,
    moduleId: 'housekeeping',
    description: `fixture ${id}`,
    schedule: { everySetting },
    exclusive,
    load: () => Promise.resolve({ run }),
  };
}

function schedule(process: Process, instanceId: string, jobs: ScheduledJob[], firstRunDelayMs = 50): Scheduler {
  const scheduler = new Scheduler({
    db: process.db,
    bus: process.bus,
    settings: process.settings,
    instanceId,
    jobs,
    firstRunDelayMs,
  });
  schedulers.push(scheduler);
  return scheduler;
}

const statusOf = (instanceId: string, jobId: string) =>
  worker.db.prisma.jobStatus.findUnique({ where: { instanceId_jobId: { instanceId, jobId } } });

/** Polls the status row until `check` stops throwing, and answers the row. */
async function eventually(
  instanceId: string,
  jobId: string,
  check: (row: NonNullable<Awaited<ReturnType<typeof statusOf>>>) => void,
) {
  return vi.waitFor(
    async () => {
      const row = await statusOf(instanceId, jobId);
      if (!row) throw new Error(`no status row for ${jobId} on ${instanceId}`);
      check(row);
      return row;
    },
    { timeout: 4_000, interval: 20 },
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  database = await createTestDatabase();
  worker = await openProcess('scheduler-test-worker');
});

afterAll(async () => {
  for (const scheduler of schedulers) await scheduler.stop(1_000);
  for (const process of processes) {
    await process.bus.close();
    await process.db.close();
  }
  await database.drop();
});

describe('Scheduler', () => {
  it('runs a job and records last run, duration, outcome, summary and next run', async () => {
    const seen: JobContext[] = [];
    const scheduler = schedule(worker, 'instance-a', [
      job('housekeeping.sweep', 'housekeeping.fast', async (context) => {
        seen.push(context);
        const { rowCount } = await context.db.execute('SELECT generate_series(1, $1::int)', [3]);
        await sleep(100);
        return { summary: `swept ${rowCount} rows` };
      }),
    ]);
    await scheduler.start();

    const row = await eventually('instance-a', 'housekeeping.sweep', (candidate) => {
      expect(candidate.lastOutcome).toBe('SUCCEEDED');
      // The next run is recorded once the job is re-armed after its run.
      expect(candidate.nextRunAt?.getTime()).toBeGreaterThan(candidate.lastFinishedAt?.getTime() ?? Infinity);
    });
    await scheduler.stop();

    expect(row).toMatchObject({
      moduleId: 'housekeeping',
      schedule: 'every housekeeping.fast',
      intervalMs: 1_000,
      lastSummary: 'swept 3 rows',
      lastError: null,
      consecutiveFailures: 0,
    });
    const started = row.lastStartedAt?.getTime() ?? NaN;
    const finished = row.lastFinishedAt?.getTime() ?? NaN;
    expect(row.lastDurationMs).toBe(finished - started);
    expect(row.lastDurationMs).toBeGreaterThanOrEqual(90);
    expect(row.lastCompletedAt).toEqual(row.lastFinishedAt);
    // Re-armed with the interval (1s) from the end of the run.
    expect((row.nextRunAt?.getTime() ?? NaN) - finished).toBeGreaterThanOrEqual(950);
    expect((row.nextRunAt?.getTime() ?? NaN) - finished).toBeLessThan(1_500);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ jobId: 'housekeeping.sweep', instanceId: 'instance-a' });
    expect(seen[0]?.settings.duration(fast)).toBe(1_000);
  });

  it('publishes a health signal on flotilla_stream once the run is recorded', async () => {
    const listener = await openProcess('scheduler-test-listener');
    const signals: { topic: string; clusterId: string; outcome: string | null | undefined }[] = [];
    listener.bus.listen(STREAM_CHANNEL, (payload) => {
      const signal = parseSignal(payload);
      if (!signal) return;
      // What a console does on the signal: re-read the status. It must already show the run.
      void listener.db.prisma.jobStatus
        .findUnique({ where: { instanceId_jobId: { instanceId: 'instance-b', jobId: 'housekeeping.ping' } } })
        .then((row) => signals.push({ topic: signal.topic, clusterId: signal.clusterId, outcome: row?.lastOutcome }));
    });
    const scheduler = schedule(worker, 'instance-b', [
      job('housekeeping.ping', 'housekeeping.fast', () => Promise.resolve({ summary: 'pong' })),
    ]);
    await scheduler.start();

    await vi.waitFor(() => expect(signals.length).toBeGreaterThan(0), { timeout: 4_000, interval: 20 });
    await scheduler.stop();

    expect(signals[0]).toEqual({ topic: 'health', clusterId: INSTALLATION_SCOPE_ID, outcome: 'SUCCEEDED' });
  });

  it('re-times a job when its interval setting is changed in another process', async () => {
    const web = await openProcess('scheduler-test-web');
    const runs: number[] = [];
    // First run far away: without the change, nothing would run during this test.
    const scheduler = schedule(
      worker,
      'instance-c',
      [
        job('housekeeping.retimed', 'housekeeping.retimed', () =>
          Promise.resolve({ summary: `run ${runs.push(Date.now())}` }),
        ),
      ],
      60_000,
    );
    await scheduler.start();
    const before = await eventually('instance-c', 'housekeeping.retimed', (row) =>
      expect(row.nextRunAt).not.toBeNull(),
    );
    expect(before.intervalMs).toBe(3_600_000);
    expect((before.nextRunAt?.getTime() ?? NaN) - Date.now()).toBeGreaterThan(50_000);

    // The change is made by the web process; the worker's store hears it on the bus and re-times the job.
    await updateSetting({ ...web, prisma: web.db.prisma }, systemContext(), {
      key: 'housekeeping.retimed',
      value: '200ms',
      dryRun: false,
    });

    await eventually('instance-c', 'housekeeping.retimed', (row) => expect(row.intervalMs).toBe(200));
    await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(3), { timeout: 3_000, interval: 20 });
    await scheduler.stop();

    const gaps = runs.slice(1).map((time, index) => time - (runs[index] ?? NaN));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(150);
    for (const gap of gaps) expect(gap).toBeLessThan(1_000);
  });

  it('runs an exclusive job on one instance at a time; the other records SKIPPED', async () => {
    const otherInstance = await openProcess('scheduler-test-other-instance');
    const ranOn: string[] = [];
    const exclusive = job(
      'housekeeping.exclusive',
      'housekeeping.exclusive',
      async (context) => {
        ranOn.push(context.instanceId);
        await sleep(600); // long enough that the other instance's run overlaps
        return { summary: 'done alone' };
      },
      true,
    );
    const first = schedule(worker, 'instance-d1', [exclusive]);
    const second = schedule(otherInstance, 'instance-d2', [exclusive]);
    await Promise.all([first.start(), second.start()]);

    const rows = await Promise.all(
      ['instance-d1', 'instance-d2'].map((instanceId) =>
        eventually(instanceId, 'housekeeping.exclusive', (row) => expect(row.lastOutcome).not.toBeNull()),
      ),
    );
    await Promise.all([first.stop(), second.stop()]);

    expect(ranOn).toHaveLength(1);
    const ran = rows.find((row) => row.instanceId === ranOn[0]);
    const skipped = rows.find((row) => row.instanceId !== ranOn[0]);
    expect(ran).toMatchObject({ lastOutcome: 'SUCCEEDED', lastSummary: 'done alone' });
    expect(skipped).toMatchObject({
      lastOutcome: 'SKIPPED',
      lastSummary: 'another instance was running this job',
      lastError: null,
    });
    // A skip counts as a completed run for job health: the job did run somewhere.
    expect(skipped?.lastCompletedAt).toBeInstanceOf(Date);
  });

  it('runs exclusive jobs due together on a small pool, taking turns to hold their locks', async () => {
    // Each holds a connection for its lock and needs another for its work: four at once on a pool of two would take
    // both connections for locks and wait for a third forever (as eight did on a worker's pool of four).
    const small = await openProcess('scheduler-test-small-pool', 2);
    const jobs = [1, 2, 3, 4].map((number) =>
      job(
        `housekeeping.turn-${String(number)}`,
        'housekeeping.exclusive',
        async (context) => {
          await context.db.execute('SELECT pg_sleep(0.2)');
          return { summary: 'ran its turn' };
        },
        true,
      ),
    );
    const scheduler = schedule(small, 'instance-turns', jobs);
    await scheduler.start();
    const rows = await vi.waitFor(
      async () => {
        const found = await Promise.all(jobs.map((declared) => statusOf('instance-turns', declared.id)));
        expect(found.map((row) => row?.lastOutcome)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
        return found;
      },
      { timeout: 15_000, interval: 50 },
    );
    await scheduler.stop();
    expect(rows.map((row) => row?.lastSummary)).toEqual(Array.from({ length: 4 }, () => 'ran its turn'));
  });

  it('records a failing job as FAILED with its error and counts consecutive failures until it succeeds', async () => {
    const failures = [new Error('broker unreachable'), new Error('x'.repeat(3_000))];
    // The scheduler logs each failure; kept out of the test output, and checked.
    const logs = captureLogLines();
    const scheduler = schedule(worker, 'instance-e', [
      job('housekeeping.failing', 'housekeeping.failing', () => {
        const failure = failures.shift();
        return failure ? Promise.reject(failure) : Promise.resolve({ summary: 'recovered' });
      }),
    ]);
    await scheduler.start();

    const once = await eventually('instance-e', 'housekeeping.failing', (row) =>
      expect(row.consecutiveFailures).toBe(1),
    );
    expect(once).toMatchObject({
      lastOutcome: 'FAILED',
      lastError: 'broker unreachable',
      lastSummary: null,
      lastCompletedAt: null,
    });
    const twice = await eventually('instance-e', 'housekeeping.failing', (row) =>
      expect(row.consecutiveFailures).toBe(2),
    );
    expect(twice.lastOutcome).toBe('FAILED');
    expect(twice.lastError).toBe('x'.repeat(2_000)); // long errors are cut to fit the job list
    const recovered = await eventually('instance-e', 'housekeeping.failing', (row) =>
      expect(row.lastOutcome).toBe('SUCCEEDED'),
    );
    await scheduler.stop();
    logs.restore();
    // The failure's line names the job (the run's log context) and carries the error itself.
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({
        level: 'error',
        module: 'jobs',
        job: 'housekeeping.failing',
        principal: 'system',
        msg: 'job failed',
        err: expect.objectContaining({ message: 'broker unreachable' }) as unknown,
      }),
    );

    expect(recovered).toMatchObject({ consecutiveFailures: 0, lastError: null, lastSummary: 'recovered' });
    expect(recovered.lastCompletedAt).toEqual(recovered.lastFinishedAt);
  });

  it('stop() aborts the running job through its signal and waits for it to finish', async () => {
    let started = false;
    let finished = false;
    let runs = 0;
    const scheduler = schedule(worker, 'instance-f', [
      job('housekeeping.long', 'housekeeping.fast', async ({ signal }) => {
        runs += 1;
        started = true;
        // Runs until asked to stop (or gives up after 5s), then needs a moment to tidy up.
        await new Promise<void>((resolve) => {
          const giveUp = setTimeout(resolve, 5_000);
          const onAbort = () => {
            clearTimeout(giveUp);
            resolve();
          };
          signal.addEventListener('abort', onAbort, { once: true });
        });
        const aborted = signal.aborted;
        await sleep(150);
        finished = true;
        return { summary: aborted ? 'stopped on request' : 'ran to the end' };
      }),
    ]);
    await scheduler.start();
    await vi.waitFor(() => expect(started).toBe(true), { timeout: 2_000, interval: 10 });

    const stopping = performance.now();
    await scheduler.stop(3_000);
    const waited = performance.now() - stopping;

    expect(finished).toBe(true);
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(3_000);
    // The run was recorded before stop() returned, and nothing runs after it.
    expect(await statusOf('instance-f', 'housekeeping.long')).toMatchObject({
      lastOutcome: 'SUCCEEDED',
      lastSummary: 'stopped on request',
    });
    await sleep(1_200);
    expect(runs).toBe(1);
  });
});
