// GET /api/v1/stream?clusterId=<uuid>&topics=<csv>: one server-sent-event response per subscriber, with no
// timeout, a `:ping` comment every `stream.keep-alive`, unknown and disabled topics dropped (and named in the
// opening `ready` event so a client can see why a topic stays silent).
import { z } from 'zod';
import { problemResponse, type RequestContext, validationProblem } from '@/modules/kernel/core/index.ts';
import type { StreamHub, StreamSink, StreamSubscriber } from './hub.ts';
import type { ReplayRegistry } from './replay.ts';

export interface StreamEndpointDependencies {
  readonly hub: StreamHub;
  readonly replay: ReplayRegistry;
  readonly enabledTopics: ReadonlySet<string>;
  readonly keepAliveMs: () => number;
}

const streamQuery = z.object({
  clusterId: z.uuid({ message: 'clusterId must be a UUID' }),
  topics: z.string().min(1, 'topics must list at least one topic, separated by commas'),
});

export function handleStreamRequest(
  request: Request,
  context: RequestContext,
  dependencies: StreamEndpointDependencies,
): Response {
  const url = new URL(request.url);
  const parsed = streamQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
    return problemResponse({ ...validationProblem(errors), requestId: context.requestId, instance: url.pathname });
  }
  const requested = [
    ...new Set(
      parsed.data.topics
        .split(',')
        .map((topic) => topic.trim())
        .filter(Boolean),
    ),
  ];
  const topics = new Set(requested.filter((topic) => dependencies.enabledTopics.has(topic)));
  const dropped = requested.filter((topic) => !topics.has(topic));
  const lastEventId = request.headers.get('last-event-id');
  const encoder = new TextEncoder();
  let subscriber: StreamSubscriber | undefined;
  let ping: NodeJS.Timeout | undefined;
  const onAbort = () => subscriber?.close();

  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const sink: StreamSink = {
          get desiredSize() {
            return controller.desiredSize;
          },
          write: (text) => controller.enqueue(encoder.encode(text)),
          // Runs whichever side ends the stream: client gone, fell behind, or shutdown.
          close: () => {
            clearInterval(ping);
            request.signal.removeEventListener('abort', onAbort);
            controller.close();
          },
        };
        const opened = dependencies.hub.subscribe(parsed.data.clusterId, topics, sink);
        subscriber = opened;
        // keepAliveMs tells the client how long a silence may last before it counts as a failure.
        const keepAliveMs = dependencies.keepAliveMs();
        const ready = JSON.stringify({ topics: [...topics], dropped, keepAliveMs });
        opened.writeNow(`retry: 3000\nevent: ready\ndata: ${ready}\n\n`);
        ping = setInterval(() => opened.writeNow(':ping\n\n'), keepAliveMs);
        request.signal.addEventListener('abort', onAbort);
        if (lastEventId) {
          dependencies.replay
            .replay(parsed.data.clusterId, topics, lastEventId)
            .then(({ events, truncated }) => {
              // Replayed ahead of anything live, in order; then, if more were missed than can be replayed, the
              // client is told so (it reloads its list instead of trusting a tail with a gap).
              for (const event of events) opened.offerEvent(event);
              if (truncated)
                opened.offerEvent({
                  topic: 'replay-truncated',
                  clusterId: parsed.data.clusterId,
                  id: '',
                  data: { replayed: events.length },
                });
            })
            .catch((error: unknown) => console.error('[stream] replay failed:', error));
        }
      },
      pull() {
        // The client read something: move what waited in the subscriber's queue.
        subscriber?.flush();
      },
      cancel() {
        subscriber?.close();
      },
    },
    new CountQueuingStrategy({ highWaterMark: 64 }),
  );

  return new Response(body, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': context.requestId,
    },
  });
}
