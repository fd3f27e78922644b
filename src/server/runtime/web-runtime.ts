// The web process's runtime, created on first use and kept on globalThis: Next.js may load route modules in
// separate chunks, and every route must share one pool, one bus connection and one subscriber registry.
import { StreamHub } from '@/modules/kernel/stream/server/hub.ts';
import { ReplayRegistry } from '@/modules/kernel/stream/server/replay.ts';
import { parseSignal, STREAM_CHANNEL } from '@/modules/kernel/stream/server/signal.ts';
import type { ModuleDescriptor } from '@/modules/kernel/plugin/descriptor.ts';
import { installedModules } from '../modules/installed-modules.ts';
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
  const stream = new StreamHub();
  runtime.bus.listen(STREAM_CHANNEL, (payload) => {
    const signal = parseSignal(payload);
    if (signal) stream.deliverSignal(signal);
  });
  return {
    ...runtime,
    stream,
    replay: new ReplayRegistry(),
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
