import { describe, expect, it } from 'vitest';
import { StreamHub, type StreamSink } from './hub.ts';

const CLUSTER = '6f1c1a52-7d1e-4c1b-9a63-0c2f3f0f5b11';
const OTHER = '0a7e8c44-2b9d-4f0e-8d7a-3b9f1c2d4e55';

/** A sink whose reader can be paused, like a client that stops reading its socket. */
function pausableSink() {
  const written: string[] = [];
  const sink = { reading: true, closed: false } as { reading: boolean; closed: boolean } & StreamSink;
  Object.defineProperties(sink, {
    desiredSize: { get: () => (sink.reading ? 1 : 0) },
    write: { value: (text: string) => written.push(text) },
    close: { value: () => (sink.closed = true) },
  });
  return { sink, written };
}

const signal = (topic: string, clusterId = CLUSTER, ts = new Date().toISOString()) => ({ topic, clusterId, ts });

describe('StreamHub', () => {
  it('gives an observer every cluster’s messages of the topics it wants, until it stops observing', () => {
    const hub = new StreamHub();
    const seen: string[] = [];
    const topics = new Set(['alerts']);
    const stop = hub.observe({
      wants: (topic) => topics.has(topic),
      signal: (delivered) => seen.push(`signal ${delivered.topic} ${delivered.clusterId}`),
      event: (delivered) => seen.push(`event ${delivered.topic} ${delivered.id}`),
    });
    expect(hub.wants('alerts', OTHER)).toBe(true);
    expect(hub.wants('queues', CLUSTER)).toBe(false);
    hub.deliverSignal(signal('alerts', OTHER));
    hub.deliverSignal(signal('queues'));
    hub.deliverEvent({ topic: 'alerts', clusterId: CLUSTER, id: 'a7', data: {} });
    topics.add('queues'); // asked per message: what it wants may change while it observes
    hub.deliverSignal(signal('queues'));
    stop();
    hub.deliverSignal(signal('alerts'));
    expect(seen).toEqual([`signal alerts ${OTHER}`, 'event alerts a7', `signal queues ${CLUSTER}`]);
    expect(hub.wants('alerts', CLUSTER)).toBe(false);
  });

  it('keeps delivering to clients and other observers when an observer throws', () => {
    const hub = new StreamHub();
    const { sink, written } = pausableSink();
    hub.subscribe(CLUSTER, new Set(['queues']), sink);
    const seen: string[] = [];
    hub.observe({
      wants: () => true,
      signal: () => {
        throw new Error('a plugin’s bug');
      },
      event: () => undefined,
    });
    hub.observe({ wants: () => true, signal: (delivered) => seen.push(delivered.topic), event: () => undefined });
    hub.deliverSignal(signal('queues'));
    expect(written).toHaveLength(1);
    expect(seen).toEqual(['queues']);
  });

  it('delivers a signal only to subscribers of that cluster and topic', () => {
    const hub = new StreamHub();
    const wanted = pausableSink();
    const otherTopic = pausableSink();
    const otherCluster = pausableSink();
    hub.subscribe(CLUSTER, new Set(['queues']), wanted.sink);
    hub.subscribe(CLUSTER, new Set(['alerts']), otherTopic.sink);
    hub.subscribe(OTHER, new Set(['queues']), otherCluster.sink);
    hub.deliverSignal(signal('queues'));
    expect(wanted.written).toHaveLength(1);
    expect(wanted.written[0]).toMatch(/^event: queues\ndata: \{"topic":"queues","clusterId":"6f1c/);
    expect(otherTopic.written).toHaveLength(0);
    expect(otherCluster.written).toHaveLength(0);
  });

  it('coalesces queued signals of one topic while the client is not reading', () => {
    const hub = new StreamHub();
    const { sink, written } = pausableSink();
    const subscriber = hub.subscribe(CLUSTER, new Set(['queues', 'alerts']), sink);
    sink.reading = false;
    for (let i = 0; i < 50; i++) hub.deliverSignal(signal('queues', CLUSTER, `t${i}`));
    hub.deliverSignal(signal('alerts'));
    expect(subscriber.queuedCount).toBe(2);
    sink.reading = true;
    subscriber.flush();
    expect(written).toHaveLength(2);
    expect(written[0]).toContain('"ts":"t49"');
  });

  it('closes a subscriber that falls behind its bound with a reconnect instruction', () => {
    const hub = new StreamHub({ maxQueuedMessages: 3, maxQueuedBytes: 1_000_000, reconnectDelayMs: 2_500 });
    const { sink, written } = pausableSink();
    hub.subscribe(CLUSTER, new Set(['events']), sink);
    sink.reading = false;
    for (let i = 0; i < 4; i++) hub.deliverEvent({ topic: 'events', clusterId: CLUSTER, id: String(i), data: { i } });
    expect(sink.closed).toBe(true);
    expect(hub.size).toBe(0);
    expect(written.at(-1)).toBe('retry: 2500\nevent: reconnect\ndata: {"reason":"fell-behind","retryMs":2500}\n\n');
  });

  it('keeps events in order with their replay id', () => {
    const hub = new StreamHub();
    const { sink, written } = pausableSink();
    hub.subscribe(CLUSTER, new Set(['events']), sink);
    hub.deliverEvent({ topic: 'events', clusterId: CLUSTER, id: '41', data: { kind: 'CONSUMER_CREATED' } });
    hub.deliverEvent({ topic: 'events', clusterId: CLUSTER, id: '42', data: { kind: 'CONSUMER_CLOSED' } });
    expect(written).toEqual([
      'id: 41\nevent: events\ndata: {"kind":"CONSUMER_CREATED"}\n\n',
      'id: 42\nevent: events\ndata: {"kind":"CONSUMER_CLOSED"}\n\n',
    ]);
  });

  it('closes everyone on shutdown, telling them to reconnect', () => {
    const hub = new StreamHub();
    const first = pausableSink();
    const second = pausableSink();
    hub.subscribe(CLUSTER, new Set(['queues']), first.sink);
    hub.subscribe(OTHER, new Set(['queues']), second.sink);
    hub.closeAll();
    expect(hub.size).toBe(0);
    expect(first.sink.closed && second.sink.closed).toBe(true);
    expect(first.written.at(-1)).toContain('"reason":"shutdown"');
  });
});
