// The running plugins' declared topics, for stream.runtime-topics: a console screen (a plugin's panel) may subscribe
// to them while the plugin runs in this web process, and they go with it.
import type { DatabaseBus } from '@/base/db/bus.ts';
import { pluginsOf } from '../process-start.ts';

export function runningPluginTopics(bus: DatabaseBus): readonly string[] {
  return (pluginsOf(bus)?.manager.list() ?? []).flatMap((plugin) => plugin.manifest.topics.map((topic) => topic.id));
}
