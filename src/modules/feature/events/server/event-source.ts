// The events topic of the stream (contributed to stream.event-sources): the worker announces each commit's seq
// range on the bus, and each web process reads those rows only for clusters someone there listens to; a
// reconnecting client gets what it missed after its Last-Event-ID (ADR 0009).
import type { EventSourceContext, StreamEvent, StreamEventSource } from '@/modules/kernel/stream/index.ts';
import { EVENTS_CHANNEL, parseAppended } from './events-channel.ts';
import { eventsAfter, eventsInRange, type StoredEvent } from './events-read.ts';
import type { BrokerEventView } from './events.schema.ts';
import { governEvents } from './governed-events.ts';

const streamEventOf = (event: BrokerEventView): StreamEvent => ({
  topic: 'events',
  clusterId: event.clusterId,
  id: String(event.seq),
  data: event,
});

export function createEventSource(context: EventSourceContext): StreamEventSource {
  const { pool } = context;
  // The stream never shows values in clear: it has no way to ask, and every clear view is audited.
  const governed = async (events: readonly StoredEvent[]) =>
    (await governEvents(context, events, { clear: false })).events.map(streamEventOf);
  return {
    channel: EVENTS_CHANNEL,
    async read(payload, wanted) {
      const appended = parseAppended(payload);
      if (!appended || !wanted(appended.clusterId)) return [];
      return governed(await eventsInRange(pool, appended.clusterId, appended.fromSeq, appended.toSeq));
    },
    async replay(clusterId, lastEventId, limit) {
      const after = Number(lastEventId);
      if (!/^\d+$/.test(lastEventId) || !Number.isSafeInteger(after)) return { events: [], truncated: false };
      const { events, truncated } = await eventsAfter(pool, clusterId, after, limit);
      return { events: await governed(events), truncated };
    },
  };
}
