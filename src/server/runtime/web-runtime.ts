// The web process's runtime, created on first use and kept on globalThis: Next.js may load route modules in
// separate chunks, and every route must share one pool, one bus connection and one subscriber registry.
import { parseSignal, ReplayRegistry, STREAM_CHANNEL, StreamHub } from '@/modules/kernel/stream/index.ts';
import type { ModuleDescriptor } from '@/modules/kernel/plugin/index.ts';
import { streamEventSources } from '@/modules/kernel/stream/module.ts';
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
  const stream = new StreamHub();
  runtime.bus.listen(STREAM_CHANNEL, (payload) => {
    const signal = parseSignal(payload);
    if (signal) stream.deliverSignal(signal);
  });
  const replay = new ReplayRegistry();
  await wireEventSources(runtime, stream, replay);
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

/**
 * Each enabled stream.event-sources contribution: its bus channel feeds this process's hub (rows are read only for
 * clusters someone here listens to), and it answers Last-Event-ID replays for its topic.
 */
async function wireEventSources(runtime: Runtime, stream: StreamHub, replay: ReplayRegistry): Promise<void> {
  for (const { value } of runtime.registry.contributionsTo(streamEventSources)) {
    const source = (await value.load()).createEventSource({ pool: runtime.db.pool, db: runtime.db, bus: runtime.bus });
    runtime.bus.listen(source.channel, (payload) => {
      source
        .read(payload, (clusterId) => stream.wants(value.topic, clusterId))
        .then((events) => events.forEach((event) => stream.deliverEvent(event)))
        .catch((error: unknown) => console.error(`[stream] reading ${value.topic} events:`, error));
    });
    replay.register(value.topic, (clusterId, lastEventId, limit) => source.replay(clusterId, lastEventId, limit));
  }
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
