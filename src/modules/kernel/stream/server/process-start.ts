// The stream module's per-process start hook. In a web process it opens the process's hub and replay registry: the
// bus's stream channel feeds the hub, and each enabled stream.event-sources contribution's channel feeds it too (rows
// are read only for clusters someone here listens to) and answers Last-Event-ID replays for its topic. A worker
// serves no streams: nothing to wire.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { ProcessStartContext } from '@/modules/kernel/plugin/index.ts';
import { streamEventSources } from './event-source.ts';
import { StreamHub } from './hub.ts';
import { ReplayRegistry } from './replay.ts';
import { parseSignal, STREAM_CHANNEL } from './signal.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('stream');

/** A web process's stream: the hub its clients hold streams of, and the replays of the topics with events. */
export interface WebStream {
  readonly hub: StreamHub;
  readonly replay: ReplayRegistry;
}

const webStreams = new WeakMap<DatabaseBus, WebStream>();

export async function start({ kind, db, bus, registry }: ProcessStartContext): Promise<void> {
  if (kind !== 'web') return;
  const hub = new StreamHub();
  bus.listen(STREAM_CHANNEL, (payload) => {
    const signal = parseSignal(payload);
    if (signal) hub.deliverSignal(signal);
  });
  const replay = new ReplayRegistry();
  for (const { value } of registry.contributionsTo(streamEventSources)) {
    const source = (await value.load()).createEventSource({ pool: db.pool, db, bus });
    bus.listen(source.channel, (payload) => {
      source
        .read(payload, (clusterId) => hub.wants(value.topic, clusterId))
        .then((events) => events.forEach((event) => hub.deliverEvent(event)))
        .catch((error: unknown) => log.error({ err: error, topic: value.topic }, 'cannot read the events'));
    });
    replay.register(value.topic, (clusterId, lastEventId, limit) => source.replay(clusterId, lastEventId, limit));
  }
  webStreams.set(bus, { hub, replay });
}

/** The stream the hook opened for the web process whose bus this is. */
export function webStreamOf(bus: DatabaseBus): WebStream {
  const stream = webStreams.get(bus);
  if (!stream) throw new Error('the stream module did not start in this process (not a web process, or not enabled)');
  return stream;
}
