// GET /api/v1/stream?clusterId=<uuid>&topics=<csv>: one server-sent-event response per subscriber, with no
// timeout, a `:ping` comment every `stream.keep-alive`, unknown and disabled topics dropped (and their positions in
// the `topics` list given in the opening `ready` event, so a client can see why a topic stays silent). A dropped
// topic is never named back: it is whatever the caller typed, a card number as well as a typo, and the kernel has no
// content policy to pass it through. A user holds at most `stream.max-per-user` streams in this process; one more
// answers 429.
import { type Problem, problemResponse, type RequestContext } from '@/modules/kernel/core/index.ts';
import type { StreamHub, StreamSink, StreamSubscriber } from './hub.ts';
import type { ReplayRegistry } from './replay.ts';
import { parseStreamQuery, type StreamQuery } from './stream-query.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('stream');

export interface StreamEndpointDependencies {
  readonly hub: StreamHub;
  readonly replay: ReplayRegistry;
  readonly enabledTopics: ReadonlySet<string>;
  readonly keepAliveMs: () => number;
  /** `stream.max-per-user`; without it (a test's own endpoint) streams are not counted. */
  readonly maxPerUser?: () => number;
}

function streamLimitProblem(limit: number): Problem {
  return {
    type: 'stream-limit',
    title: 'Too many open streams',
    status: 429,
    detail: `You hold ${limit} open streams, the most one user may (stream.max-per-user): close one first.`,
    limit,
  };
}

/** Parses the query and opens the stream: for callers that guard nothing in between (tests). */
export function handleStreamRequest(
  request: Request,
  context: RequestContext,
  dependencies: StreamEndpointDependencies,
): Response {
  const url = new URL(request.url);
  const parsed = parseStreamQuery(url);
  if ('problem' in parsed)
    return problemResponse({ ...parsed.problem, requestId: context.requestId, instance: url.pathname });
  return openStream(parsed.query, request, context, dependencies);
}

/** Opens the stream of a query parsed (and guarded) by the caller: the very value the guard checked. */
export function openStream(
  query: StreamQuery,
  request: Request,
  context: RequestContext,
  dependencies: StreamEndpointDependencies,
): Response {
  const owner = context.actor.userId;
  const limit = dependencies.maxPerUser?.();
  // Counted and subscribed with no await in between (the stream's start runs at once), so parallel opens cannot
  // each see room for one more.
  if (owner && limit !== undefined && dependencies.hub.countOwnedBy(owner) >= limit) {
    const instance = new URL(request.url).pathname;
    return problemResponse({ ...streamLimitProblem(limit), requestId: context.requestId, instance });
  }
  const topics = new Set(query.topics.filter((topic) => dependencies.enabledTopics.has(topic)));
  // Positions, not names: the accepted topics are the installation's own names, the dropped ones the caller's text.
  const dropped = query.listed.flatMap((topic, position) => (topic && !topics.has(topic) ? [position] : []));
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
        const opened = dependencies.hub.subscribe(query.clusterId, topics, sink, owner);
        subscriber = opened;
        // keepAliveMs tells the client how long a silence may last before it counts as a failure.
        const keepAliveMs = dependencies.keepAliveMs();
        const ready = JSON.stringify({ topics: [...topics], dropped, keepAliveMs });
        opened.writeNow(`retry: 3000\nevent: ready\ndata: ${ready}\n\n`);
        ping = setInterval(() => opened.writeNow(':ping\n\n'), keepAliveMs);
        request.signal.addEventListener('abort', onAbort);
        // A caller who left while the guard read the database has aborted already: no event comes for that, and a
        // server that sees its client gone may never read (so never cancel) this body. Closed now, not held open
        // with its ping timer and a place in stream.max-per-user (found by fuzz-stream.int.test.ts).
        if (request.signal.aborted) {
          onAbort();
          return;
        }
        if (lastEventId) {
          dependencies.replay
            .replay(query.clusterId, topics, lastEventId)
            .then(({ events, truncated }) => {
              // Replayed ahead of anything live, in order; then, if more were missed than can be replayed, the
              // client is told so (it reloads its list instead of trusting a tail with a gap).
              for (const event of events) opened.offerEvent(event);
              if (truncated)
                opened.offerEvent({
                  topic: 'replay-truncated',
                  clusterId: query.clusterId,
                  id: '',
                  data: { replayed: events.length },
                });
            })
            .catch((error: unknown) => log.error({ err: error }, 'replay failed'));
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
