// How every child of the supervisor ends: on SIGTERM/SIGINT, or when the supervisor's IPC channel closes (the
// supervisor died), it runs its shutdown once and exits. This is what leaves no process behind.
import { logger } from '@/base/log/log.ts';

const log = logger('lifecycle');
export function onShutdown(name: string, shutdown: () => Promise<void>): void {
  let started = false;
  const run = (reason: string) => {
    if (started) return;
    started = true;
    log.info({ reason }, `${name} shutting down (${reason})`);
    const forceExit = setTimeout(() => {
      log.error(`${name} shutdown took too long; exiting`);
      process.exit(1);
    }, 20_000);
    forceExit.unref();
    shutdown()
      .catch((error: unknown) => log.error({ err: error }, `${name} shutdown failed`))
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', () => run('SIGTERM'));
  process.on('SIGINT', () => run('SIGINT'));
  process.on('disconnect', () => run('supervisor gone'));
}

/** Tells the supervisor something over IPC when there is a supervisor. */
export function tellSupervisor(message: Record<string, unknown>): void {
  process.send?.(message);
}
