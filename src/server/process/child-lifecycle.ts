// How every child of the supervisor ends: on SIGTERM/SIGINT, or when the supervisor's IPC channel closes (the
// supervisor died), it runs its shutdown once and exits. This is what leaves no process behind.
export function onShutdown(name: string, shutdown: () => Promise<void>): void {
  let started = false;
  const run = (reason: string) => {
    if (started) return;
    started = true;
    console.log(`[${name}] shutting down (${reason})`);
    const forceExit = setTimeout(() => {
      console.error(`[${name}] shutdown took too long; exiting`);
      process.exit(1);
    }, 20_000);
    forceExit.unref();
    shutdown()
      .catch((error: unknown) => console.error(`[${name}] shutdown failed:`, error))
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
