// The one scheduler, run by the worker. Interval jobs take their cadence from a duration setting and are
// re-timed when it changes (cron cannot say "every 90s"); cron jobs are timed by node-cron. After every run the
// job's status row is written and a `health` signal is published, so every instance's console sees it.
import { tryLockSession, unlockSession } from '@/base/advisory-lock.ts';
import { logger, withLogContext } from '@/base/log/log.ts';
import cron, { type ScheduledTask } from 'node-cron';
import type { PoolClient } from 'pg';
import type { Database } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { JobContext, JobDeclaration } from '@/modules/kernel/plugin/index.ts';
import type { SettingsStore } from '@/modules/kernel/settings/index.ts';
import { INSTALLATION_SCOPE_ID, publishSignal } from '@/modules/kernel/stream/index.ts';
import { describeSchedule } from './job-status.ts';

const log = logger('jobs');

export type ScheduledJob = JobDeclaration & { readonly moduleId: string };

export interface SchedulerDependencies {
  readonly db: Database;
  readonly bus: DatabaseBus;
  readonly settings: SettingsStore;
  readonly instanceId: string;
  readonly jobs: readonly ScheduledJob[];
  /** First run of an interval job: after this delay or its interval, whichever is shorter. */
  readonly firstRunDelayMs?: number;
}

interface JobState {
  readonly job: ScheduledJob;
  intervalMs: number;
  timer?: NodeJS.Timeout;
  cronTask?: ScheduledTask;
  running?: Promise<void>;
  lastStartedAt?: Date;
  consecutiveFailures: number;
}

const MAX_ERROR_LENGTH = 2_000;

/**
 * Turns to hold a connection for an exclusive job's lock. Such a job holds one connection for its lock while its work
 * takes others from the same pool, so jobs starting together must not hold them all: with a pool of four, eight due
 * at a worker's start took every connection for their locks and waited for one forever. At most half the pool holds
 * locks; a job past that waits for a turn (it runs late, it is not skipped).
 */
class LockTurns {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(poolSize: number) {
    this.free = Math.max(1, Math.floor(poolSize / 2));
  }

  async take(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}

export class Scheduler {
  private readonly states: JobState[];
  private readonly unsubscribe: (() => void)[] = [];
  private readonly abort = new AbortController();
  private readonly lockTurns: LockTurns;
  private stopped = false;

  constructor(private readonly dependencies: SchedulerDependencies) {
    this.states = dependencies.jobs.map((job) => ({ job, intervalMs: this.intervalOf(job), consecutiveFailures: 0 }));
    this.lockTurns = new LockTurns(dependencies.db.pool.options.max);
  }

  private intervalOf(job: ScheduledJob): number {
    if ('everySetting' in job.schedule) return this.everySetting(job.schedule.everySetting);
    const probe = cron.createTask(job.schedule.cron, () => undefined);
    const [first, second] = probe.getNextRuns(2);
    void probe.destroy();
    return first && second ? second.getTime() - first.getTime() : 86_400_000;
  }

  /** A job's interval setting is named by its key in the declaration, so its declared duration is looked up here. */
  private everySetting(key: string): number {
    const declared = this.dependencies.settings.declaration(key)?.declaration;
    if (!declared) throw new Error(`No module declares the setting ${key}`);
    if (declared.kind !== 'duration') throw new Error(`Setting ${key} is a ${declared.kind}, not a duration`);
    return this.dependencies.settings.duration(declared);
  }

  async start(): Promise<void> {
    const { db, instanceId } = this.dependencies;
    await db.prisma.jobStatus.deleteMany({
      where: { instanceId, jobId: { notIn: this.states.map((state) => state.job.id) } },
    });
    const now = new Date();
    for (const state of this.states) {
      const row = {
        moduleId: state.job.moduleId,
        schedule: describeSchedule(state.job.schedule),
        intervalMs: state.intervalMs,
        scheduledSince: now,
        updatedAt: now,
      };
      await db.prisma.jobStatus.upsert({
        where: { instanceId_jobId: { instanceId, jobId: state.job.id } },
        create: { instanceId, jobId: state.job.id, ...row },
        update: row,
      });
      this.arm(state, Math.min(state.intervalMs, this.dependencies.firstRunDelayMs ?? 5_000));
      const schedule = state.job.schedule;
      if ('everySetting' in schedule) {
        this.unsubscribe.push(
          this.dependencies.settings.onChange(schedule.everySetting, () => void this.retime(state)),
        );
      }
    }
  }

  private arm(state: JobState, delayMs: number): void {
    if (this.stopped) return;
    if ('cron' in state.job.schedule) {
      state.cronTask ??= cron.schedule(state.job.schedule.cron, () => this.runOnce(state), {
        noOverlap: true,
        name: state.job.id,
      });
      void this.recordNextRun(state, state.cronTask.getNextRun());
      return;
    }
    clearTimeout(state.timer);
    state.timer = setTimeout(() => void this.runOnce(state).finally(() => this.arm(state, state.intervalMs)), delayMs);
    void this.recordNextRun(state, new Date(Date.now() + delayMs));
  }

  /** A changed interval applies from the last start: a shorter one may make the job due at once. */
  private async retime(state: JobState): Promise<void> {
    state.intervalMs = this.intervalOf(state.job);
    await this.dependencies.db.prisma.jobStatus
      .update({ where: this.key(state), data: { intervalMs: state.intervalMs, updatedAt: new Date() } })
      .catch((error: unknown) => log.error({ err: error, job: state.job.id }, 'cannot record the interval'));
    if (state.running) return; // re-armed with the new interval when the run ends
    const dueAt = (state.lastStartedAt?.getTime() ?? Date.now()) + state.intervalMs;
    this.arm(state, Math.max(0, dueAt - Date.now()));
  }

  private key(state: JobState) {
    return { instanceId_jobId: { instanceId: this.dependencies.instanceId, jobId: state.job.id } };
  }

  private async recordNextRun(state: JobState, nextRunAt: Date | null): Promise<void> {
    await this.dependencies.db.prisma.jobStatus
      .update({ where: this.key(state), data: { nextRunAt, updatedAt: new Date() } })
      .catch((error: unknown) => log.error({ err: error, job: state.job.id }, 'cannot record the next run'));
  }

  private runOnce(state: JobState): Promise<void> {
    if (this.stopped || state.running) return state.running ?? Promise.resolve();
    // Every line the job logs (through its context or its modules' loggers) names the job and the system actor.
    state.running = withLogContext({ job: state.job.id, principal: 'system' }, () => this.execute(state))
      .catch((error: unknown) => log.error({ err: error, job: state.job.id }, 'cannot record the run'))
      .finally(() => (state.running = undefined));
    return state.running;
  }

  private async execute(state: JobState): Promise<void> {
    const { db, bus, settings, instanceId } = this.dependencies;
    const startedAt = new Date();
    state.lastStartedAt = startedAt;
    await db.prisma.jobStatus.update({
      where: this.key(state),
      data: { lastStartedAt: startedAt, updatedAt: startedAt },
    });
    let outcome: 'SUCCEEDED' | 'FAILED' | 'SKIPPED' = 'SUCCEEDED';
    let error: string | null = null;
    let summary: string | null = null;
    const endTurn = state.job.exclusive ? await this.lockTurns.take() : undefined;
    let lockClient: PoolClient | undefined;
    try {
      lockClient = state.job.exclusive ? await db.pool.connect() : undefined;
      const locked = lockClient ? await tryLockSession(lockClient, 'jobs', state.job.id) : true;
      if (!locked) {
        outcome = 'SKIPPED';
        summary = 'another instance was running this job';
      } else {
        const context: JobContext = {
          jobId: state.job.id,
          instanceId,
          signal: this.abort.signal,
          settings,
          db: {
            execute: async (sql, params = []) => ({ rowCount: (await db.pool.query(sql, [...params])).rowCount ?? 0 }),
          },
          publishSignal: (topic, clusterId) => publishSignal(bus, topic, clusterId),
          log: (message) => log.info(message),
        };
        const { run } = await state.job.load();
        summary = (await run(context)).summary ?? null;
      }
    } catch (caught) {
      outcome = 'FAILED';
      error = (caught instanceof Error ? caught.message : String(caught)).slice(0, MAX_ERROR_LENGTH);
      log.error({ err: caught }, 'job failed');
    } finally {
      if (lockClient) {
        await unlockSession(lockClient, 'jobs', state.job.id).catch(() => undefined);
        lockClient.release();
      }
      endTurn?.();
    }
    state.consecutiveFailures = outcome === 'FAILED' ? state.consecutiveFailures + 1 : 0;
    const finishedAt = new Date();
    await db.prisma.jobStatus.update({
      where: this.key(state),
      data: {
        lastFinishedAt: finishedAt,
        lastDurationMs: finishedAt.getTime() - startedAt.getTime(),
        lastOutcome: outcome,
        lastError: error,
        lastSummary: summary,
        consecutiveFailures: state.consecutiveFailures,
        ...(outcome === 'FAILED' ? {} : { lastCompletedAt: finishedAt }),
        updatedAt: finishedAt,
      },
    });
    log.debug({ outcome, durationMs: finishedAt.getTime() - startedAt.getTime() }, 'job finished');
    await publishSignal(bus, 'health', INSTALLATION_SCOPE_ID);
  }

  /** Stops timing new runs, asks running jobs to stop, and waits for them up to the timeout. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    for (const state of this.states) {
      clearTimeout(state.timer);
      await state.cronTask?.destroy();
    }
    this.abort.abort();
    const running = this.states.flatMap((state) => (state.running ? [state.running.catch(() => undefined)] : []));
    await Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  }
}
