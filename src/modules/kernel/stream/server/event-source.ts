// The stream.event-sources extension point's contract: a module whose topic carries events (not change signals)
// says which bus channel announces new ones, how to read the events an announcement names, and how to replay what
// a reconnecting client missed. The stream module wires each enabled source to the web process's hub and replay
// registry (process-start.ts). The point is declared here, not in module.ts, so that wiring reads it without a cycle.
import type { Pool } from 'pg';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import { createExtensionPoint } from '@/modules/kernel/plugin/index.ts';
import type { StreamEvent } from './hub.ts';

export interface ReplayAnswer {
  readonly events: readonly StreamEvent[];
  /** More were missed than the limit allows: the client is told to reload rather than trust the tail. */
  readonly truncated: boolean;
}

export interface StreamEventSource {
  /** The bus channel whose messages announce new events. */
  readonly channel: string;
  /** The events an announcement names, read only for clusters someone is listening to (`wanted`). */
  read(payload: string, wanted: (clusterId: string) => boolean): Promise<readonly StreamEvent[]>;
  /** Events of the cluster after `lastEventId`, oldest first, at most `limit`. */
  replay(clusterId: string, lastEventId: string, limit: number): Promise<ReplayAnswer>;
}

/** What a source may use: the database (its pool for plain reads) and the bus (a policy in force follows it). */
export interface EventSourceContext {
  readonly pool: Pool;
  readonly db: Database;
  readonly bus: DatabaseBus;
}

export interface StreamEventSourceDeclaration {
  readonly topic: string;
  readonly load: () => Promise<{ createEventSource(context: EventSourceContext): StreamEventSource }>;
}

/** Topics that carry events with a replay position (Last-Event-ID), each with its bus channel and reader. */
export const streamEventSources = createExtensionPoint<StreamEventSourceDeclaration>({
  id: 'stream.event-sources',
  owner: 'stream',
  cardinality: 'many',
});
