// The stream endpoint on a real database bus: signals published by another process reach the client, keep-alive
// pings flow, Last-Event-ID replays through the hook, and a client that stops reading is told to reconnect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/modules/kernel/core/request-context.ts';
import {
  handleStreamRequest,
  type StreamEndpointDependencies,
} from '../../src/modules/kernel/stream/server/stream-endpoint.ts';
import { publishSignal } from '../../src/modules/kernel/stream/server/signal.ts';
import { ReplayRegistry } from '../../src/modules/kernel/stream/server/replay.ts';
import { createDatabaseBus, type DatabaseBus } from '../../src/base/db/bus.ts';
import { openDatabase, type Database } from '../../src/base/db/database.ts';
import { openWebRuntime, type WebRuntime } from '../../src/server/runtime/web-runtime.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';

const CLUSTER = '3d6f0c3e-1a55-4f5e-9a43-4c1c6c9b2f10';
const context: RequestContext = { requestId: 'stream-test', actor: { name: 'test', userId: null }, sourceIp: null };

let database: TestDatabase;
let runtime: WebRuntime;
let otherProcess: { db: Database; bus: DatabaseBus };

function dependencies(overrides: Partial<StreamEndpointDependencies> = {}): StreamEndpointDependencies {
  return {
    hub: runtime.stream,
    replay: runtime.replay,
    enabledTopics: new Set(['health', 'queues', 'events']),
    keepAliveMs: () => 200,
    ...overrides,
  };
}

function open(
  query: string,
  headers: Record<string, string> = {},
  overrides: Partial<StreamEndpointDependencies> = {},
) {
  const controller = new AbortController();
  const request = new Request(`http://127.0.0.1/api/v1/stream?${query}`, { headers, signal: controller.signal });
  return { response: handleStreamRequest(request, context, dependencies(overrides)), abort: () => controller.abort() };
}

/** Reads the body until `until` matches the text so far, or the stream ends, or the time is up. */
async function readUntil(response: Response, until: (text: string) => boolean, timeoutMs = 5_000): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  while (!until(text) && Date.now() < deadline) {
    const chunk = await Promise.race([
      reader.read(),
      new Promise<undefined>((resolve) => setTimeout(resolve, deadline - Date.now())),
    ]);
    if (!chunk || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

beforeAll(async () => {
  database = await createTestDatabase();
  runtime = await openWebRuntime({ DATABASE_URL: database.url });
  const db = openDatabase(database.url, { poolSize: 2, applicationName: 'other-process' });
  otherProcess = { db, bus: createDatabaseBus(database.url, db.pool, 'other-process') };
  await otherProcess.bus.ready();
});

afterAll(async () => {
  await otherProcess.bus.close();
  await otherProcess.db.close();
  await runtime.close();
  await database.drop();
});

describe('GET /api/v1/stream', () => {
  it('refuses a cluster id that is not a UUID with a problem', async () => {
    const { response } = open('clusterId=42&topics=queues');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'validation-failed', errors: [{ field: 'clusterId' }] });
  });

  it('opens with the accepted topics and the positions of the dropped ones, never buffers, and pings', async () => {
    const { response, abort } = open(`clusterId=${CLUSTER}&topics=queues,nonsense,alerts`);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const text = await readUntil(response, (so) => so.includes(':ping'));
    expect(text).toContain('event: ready\ndata: {"topics":["queues"],"dropped":[1,2],"keepAliveMs":200}');
    expect(text).toContain(':ping\n\n');
    abort();
  });

  it('never names a dropped topic back: a card number typed as one is a position in the list as sent', async () => {
    const card = '4111 1111 1111 1111';
    const { response, abort } = open(
      `clusterId=${CLUSTER}&topics=${encodeURIComponent(` ${card} ,queues,,queues,${card},health`)}`,
    );
    const text = await readUntil(response, (so) => so.includes('\n\n'));
    abort();
    // Empty items count as positions but are no topics; a repeated accepted topic is accepted, a repeated dropped
    // one dropped at each of its positions.
    expect(text).toContain('event: ready\ndata: {"topics":["queues","health"],"dropped":[0,4],"keepAliveMs":200}');
    expect(text).not.toContain('4111');
  });

  it('ignores a parameter it does not read, given twice, and never names it back', async () => {
    const card = encodeURIComponent('4111 1111 1111 1111');
    const { response, abort } = open(`clusterId=${CLUSTER}&topics=queues&${card}=1&${card}=2`);
    expect(response.status).toBe(200);
    const text = await readUntil(response, (so) => so.includes('\n\n'));
    abort();
    expect(text).toContain('"topics":["queues"],"dropped":[]');
    expect(text).not.toContain('4111');
  });

  it('passes on a signal another process publishes through the database', async () => {
    const { response, abort } = open(`clusterId=${CLUSTER}&topics=queues`);
    await readUntil(response, (so) => so.includes('event: ready'));
    await publishSignal(otherProcess.bus, 'queues', '9b2d1c3e-0000-4000-8000-000000000000'); // another cluster: not ours
    await publishSignal(otherProcess.bus, 'queues', CLUSTER);
    const text = await readUntil(response, (so) => so.includes('event: queues'));
    expect(text).toMatch(/event: queues\ndata: \{"topic":"queues","clusterId":"3d6f0c3e-[^"]+","ts":"[^"]+"\}/);
    expect(text).not.toContain('9b2d1c3e');
    abort();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runtime.stream.size).toBe(0);
  });

  it('replays what a reconnecting client missed through the registered provider, and says when more were missed', async () => {
    const asked: string[] = [];
    // A registry of its own: the installed events module registers the real provider for `events`.
    const replay = new ReplayRegistry();
    replay.register('events', (clusterId, lastEventId) => {
      asked.push(`${clusterId}:${lastEventId}`);
      return Promise.resolve({
        events: [
          { topic: 'events', clusterId, id: '11', data: { kind: 'BINDING_ADDED' } },
          { topic: 'events', clusterId, id: '12', data: { kind: 'CONSUMER_CREATED' } },
        ],
        truncated: true,
      });
    });
    const { response, abort } = open(`clusterId=${CLUSTER}&topics=events`, { 'Last-Event-ID': '10' }, { replay });
    const text = await readUntil(response, (so) => so.includes('event: replay-truncated'));
    expect(asked).toEqual([`${CLUSTER}:10`]);
    expect(text).toContain('id: 11\nevent: events\ndata: {"kind":"BINDING_ADDED"}');
    expect(text.indexOf('id: 12')).toBeLessThan(text.indexOf('event: replay-truncated'));
    expect(text).toContain('event: replay-truncated\ndata: {"replayed":2}');
    abort();
  });

  it('closes a client that stops reading with a reconnect instruction', async () => {
    const { response } = open(`clusterId=${CLUSTER}&topics=events`);
    // Nobody reads: the response's own buffer fills, then the subscriber's bounded queue.
    for (let i = 0; i < 1_000 && runtime.stream.size > 0; i++) {
      runtime.stream.deliverEvent({ topic: 'events', clusterId: CLUSTER, id: String(i), data: { i } });
    }
    expect(runtime.stream.size).toBe(0);
    const text = await readUntil(response, () => false, 2_000);
    expect(text.trimEnd().endsWith('event: reconnect\ndata: {"reason":"fell-behind","retryMs":1000}')).toBe(true);
  });
});
