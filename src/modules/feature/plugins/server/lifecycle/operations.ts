// One plugin operation at a time, whichever instance it starts on: an advisory lock held for the whole operation
// (a second one is refused, not queued), the installer's step-up checked before anything, the audit row committed
// before the plugin is touched, the row moved, every web process told on the bus, and the stream signal after commit.
import { tryLockSession, unlockSession } from '@/base/advisory-lock.ts';
import type { Database } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import { openAudit } from '@/modules/kernel/audit/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import { INSTALLATION_SCOPE_ID, publishSignal } from '@/modules/kernel/stream/index.ts';
import { PLUGINS_CHANNEL } from '../host/plugin-manager.ts';

// Declared in the descriptor's topics: the Plugins screen listens to it.
const PLUGINS_TOPIC = 'plugins';

const operationBusyProblem = () =>
  new ProblemError({
    type: 'plugin-operation-running',
    title: 'Another plugin operation is running',
    status: 409,
    detail: 'Plugin operations run one at a time across the installation; try again when the current one has finished.',
  });

export const pluginNotFoundProblem = () =>
  new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: 'No such plugin.' });

export const operationRefusedProblem = (detail: string) =>
  new ProblemError({ type: 'plugin-operation-refused', title: 'Plugin operation refused', status: 409, detail });

export interface OperationRun<Result> {
  readonly action: string;
  readonly target: string;
  readonly parameters: Record<string, unknown>;
  readonly dryRun: boolean;
  /** Checks that need the lock (the plugin's state); throws a problem to refuse before the audit row. */
  readonly check: () => Promise<void>;
  readonly dryRunResult: () => Promise<Result>;
  /** The work itself, after the PENDING audit row is committed. */
  readonly work: () => Promise<Result>;
}

/** Runs an operation under the installation-wide plugin lock, audited. */
export async function runPluginOperation<Result>(
  context: { db: Database; bus: DatabaseBus; request: RequestContext },
  run: OperationRun<Result>,
): Promise<Result> {
  const client = await context.db.pool.connect();
  try {
    if (!(await tryLockSession(client, 'plugins.operation'))) throw operationBusyProblem();
    try {
      await run.check();
      const entry = { action: run.action, target: run.target, parameters: run.parameters, dryRun: run.dryRun };
      const audit = await openAudit(context.db.prisma, context.request, entry);
      try {
        const result = run.dryRun ? await run.dryRunResult() : await run.work();
        await audit.finish({ outcome: 'SUCCEEDED' });
        if (!run.dryRun) {
          await context.bus.notify(PLUGINS_CHANNEL, run.target).catch(() => undefined);
          await publishSignal(context.bus, PLUGINS_TOPIC, INSTALLATION_SCOPE_ID).catch(() => undefined);
        }
        return result;
      } catch (error) {
        await audit.finish({ outcome: 'FAILED', error: (error as Error).message }).catch(() => undefined);
        throw error;
      }
    } finally {
      await unlockSession(client, 'plugins.operation');
    }
  } finally {
    client.release();
  }
}
