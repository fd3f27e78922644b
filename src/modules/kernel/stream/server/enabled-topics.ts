// The topics a subscription may name now: every enabled module's declared topics, and the runtime topics their
// sources say exist in this process (stream.runtime-topics).
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { streamRuntimeTopics } from './runtime-topics.ts';

export async function enabledStreamTopics(registry: ModuleRegistry, bus: DatabaseBus): Promise<ReadonlySet<string>> {
  const topics = new Set(registry.enabledTopics());
  for (const { value } of registry.contributionsTo(streamRuntimeTopics))
    for (const topic of (await value.load())(bus)) topics.add(topic);
  return topics;
}
