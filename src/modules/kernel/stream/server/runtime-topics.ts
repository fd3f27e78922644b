// The stream.runtime-topics point: topics that exist only while something runs (a runtime plugin's declared topics),
// beside the descriptors' fixed ones. The stream endpoint accepts a subscription to them while their source says
// they exist; a topic that goes away is simply dropped at the next subscription, as a disabled module's is.
import type { DatabaseBus } from '@/base/db/bus.ts';
import { createExtensionPoint } from '@/modules/kernel/plugin/index.ts';

export interface RuntimeTopicSourceDeclaration {
  readonly id: string;
  /** The topics that exist now in the process whose bus this is. */
  readonly load: () => Promise<(bus: DatabaseBus) => readonly string[]>;
}

export const streamRuntimeTopics = createExtensionPoint<RuntimeTopicSourceDeclaration>({
  id: 'stream.runtime-topics',
  owner: 'stream',
  cardinality: 'many',
});
