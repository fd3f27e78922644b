// The web process's runtime, created on first use and kept on globalThis: Next.js may load route modules in
// separate chunks, and every route must share one pool, one bus connection and one subscriber registry.
import { StreamHub } from '@/modules/kernel/stream/server/hub.ts';
import { ReplayRegistry } from '@/modules/kernel/stream/server/replay.ts';
import { parseSignal, STREAM_CHANNEL } from '@/modules/kernel/stream/server/signal.ts';
import { registerShutdownHook } from '../process/shutdown-hooks.ts';
import { openRuntime, type Runtime } from './runtime.ts';

export interface WebRuntime extends Runtime {
  readonly stream: StreamHub;
  readonly replay: ReplayRegistry;
}

const KEY = Symbol.for('flotilla.webRuntime');
type Holder = { [KEY]?: Promise<WebRuntime> };

async function createWebRuntime(): Promise<WebRuntime> {
  const runtime = await openRuntime('web');
  const stream = new StreamHub();
  runtime.bus.listen(STREAM_CHANNEL, (payload) => {
    const signal = parseSignal(payload);
    if (signal) stream.deliverSignal(signal);
  });
  // Shutdown order of the spec: the stream closes first, then everything else.
  registerShutdownHook(async () => {
    stream.closeAll();
    await runtime.close();
  });
  return { ...runtime, stream, replay: new ReplayRegistry() };
}

export function getWebRuntime(): Promise<WebRuntime> {
  const holder = globalThis as Holder;
  holder[KEY] ??= createWebRuntime().catch((error: unknown) => {
    delete holder[KEY];
    throw error;
  });
  return holder[KEY];
}
