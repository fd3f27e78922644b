// Shutdown hooks shared through globalThis: the web entry (loaded by Node) and the route code (bundled by
// Next.js) are different module graphs, so a module-level list would not be seen by both.
import { logger } from '@/base/log/log.ts';

const log = logger('lifecycle');
const KEY = Symbol.for('flotilla.shutdownHooks');
type Hook = () => Promise<void>;
type Holder = { [KEY]?: Hook[] };

function hooks(): Hook[] {
  const holder = globalThis as Holder;
  holder[KEY] ??= [];
  return holder[KEY];
}

export function registerShutdownHook(hook: Hook): void {
  hooks().push(hook);
}

/** Runs hooks in registration order, each bounded by the timeout, never throwing. */
export async function runShutdownHooks(timeoutMs = 10_000): Promise<void> {
  for (const hook of hooks().splice(0)) {
    await Promise.race([
      hook().catch((error: unknown) => log.error({ err: error }, 'a shutdown hook failed')),
      new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
    ]);
  }
}
