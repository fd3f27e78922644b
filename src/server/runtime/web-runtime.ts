// The web process's runtime, created on first use and kept on globalThis: Next.js may load route modules in
// separate chunks, and every route must share one pool, one bus connection and one subscriber registry.
import { webStreamOf, type ReplayRegistry, type StreamHub } from '@/modules/kernel/stream/index.ts';
import type { ModuleDescriptor } from '@/modules/kernel/plugin/index.ts';
import { installedModules } from '@/installation/modules.ts';
import { registerShutdownHook } from '../process/shutdown-hooks.ts';
import { openRuntime, type Runtime } from './runtime.ts';

export interface WebRuntime extends Runtime {
  readonly stream: StreamHub;
  readonly replay: ReplayRegistry;
}

const KEY = Symbol.for('flotilla.webRuntime');
type Holder = { [KEY]?: Promise<WebRuntime> };

/** Opens a web runtime; `getWebRuntime` is the one the routes use. Tests open their own with fixture modules. */
export async function openWebRuntime(
  source: Readonly<Record<string, string | undefined>> = process.env,
  modules: readonly ModuleDescriptor[] = installedModules,
): Promise<WebRuntime> {
  const runtime = await openRuntime('web', source, modules);
  // The stream module's start hook opened them (kernel/stream/server/process-start.ts).
  const { hub: stream, replay } = webStreamOf(runtime.bus);
  return {
    ...runtime,
    stream,
    replay,
    // Shutdown order of the spec: the stream closes first, then everything else.
    async close() {
      stream.closeAll();
      await runtime.close();
    },
  };
}

export function getWebRuntime(): Promise<WebRuntime> {
  const holder = globalThis as Holder;
  holder[KEY] ??= openWebRuntime()
    .then((runtime) => {
      registerShutdownHook(() => runtime.close());
      return runtime;
    })
    .catch((error: unknown) => {
      holder[KEY] = undefined;
      throw error;
    });
  return holder[KEY];
}
