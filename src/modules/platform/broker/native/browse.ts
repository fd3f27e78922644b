// Browse a queue over AMQP without consuming: a receiver whose source has distribution-mode `copy`
// makes Artemis create a browse-only consumer (no locks, no acks, no CONSUMER_CREATED notification).
// AMQP has no "end of queue" marker, so we grant credit for the whole window and ask the broker to drain: a
// drained flow after a round that brought nothing says it has nothing more to send. Pages walk the queue from its
// head each time, in the broker's delivery order, so offset/limit paging is stable while the queue does not change.
import type { EventContext } from 'rhea';
import { linkAttached, NativeOperationError, withSession } from './link-session.ts';
import type { NativeEndpoint } from './native-endpoint.ts';
import { nativeMessageOf, type NativeMessage } from './native-message.ts';
import { nativeOptions } from './native-pool.ts';

export interface BrowseRequest {
  /** The queue; with `address`, the fully qualified `address::queue` is browsed (needed for multicast). */
  readonly queue: string;
  readonly address?: string;
  readonly offset: number;
  readonly limit: number;
  /** Whole-operation bound; defaults to the connect timeout plus 20 s. */
  readonly timeoutMs?: number;
}

interface BrowsedMessage extends NativeMessage {
  /** 0-based place in the queue at the time of the browse. */
  readonly position: number;
}

export interface BrowsePage {
  readonly channel: 'native';
  readonly offset: number;
  readonly limit: number;
  readonly messages: readonly BrowsedMessage[];
  /** True when the queue held more messages after this page. */
  readonly hasMore: boolean;
}

/** The page lies beyond the native window; the caller should fall back to the management channel. */
export class BrowseWindowExceededError extends NativeOperationError {
  constructor(window: number, maxWindow: number) {
    super(
      `offset + limit is ${window}, beyond the native browse window of ${maxWindow} (broker.native.browse-max-window)`,
    );
    this.name = 'BrowseWindowExceededError';
  }
}

function sourceAddress(request: BrowseRequest): string {
  return request.address ? `${request.address}::${request.queue}` : request.queue;
}

export async function browseQueue(endpoint: NativeEndpoint, request: BrowseRequest): Promise<BrowsePage> {
  if (!Number.isInteger(request.offset) || request.offset < 0)
    throw new RangeError('offset must be a whole number ≥ 0');
  if (!Number.isInteger(request.limit) || request.limit < 1) throw new RangeError('limit must be a whole number ≥ 1');
  const window = request.offset + request.limit;
  const options = nativeOptions();
  if (window > options.browseMaxWindow) throw new BrowseWindowExceededError(window, options.browseMaxWindow);
  const timeoutMs = request.timeoutMs ?? options.connectTimeoutMs + 20_000;

  return withSession(endpoint, async (session, links) => {
    const receiver = session.open_receiver({
      source: { address: sourceAddress(request), distribution_mode: 'copy' },
      credit_window: 0,
      autoaccept: false,
    });
    links.push(receiver);
    await linkAttached(receiver, `browse of ${sourceAddress(request)}`, timeoutMs);

    // One more than the window tells whether anything lies beyond this page.
    const wanted = window + 1;
    const received: NativeMessage[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new NativeOperationError(`browse of ${sourceAddress(request)}: no end within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const finish = () => {
        clearTimeout(timer);
        resolve();
      };
      let sinceDrain = 0;
      receiver.on('message', (context: EventContext) => {
        if (context.message) received.push(nativeMessageOf(context.message));
        sinceDrain += 1;
        if (received.length >= wanted) finish();
      });
      // Artemis answers a drain once what it had at hand is sent, which on a long queue can be a first batch: drain
      // again while a round still brings messages; a round that brings none is the end of the queue.
      receiver.on('receiver_drained', () => {
        if (sinceDrain === 0 || received.length >= wanted) {
          finish();
          return;
        }
        sinceDrain = 0;
        receiver.drain = true;
        receiver.add_credit(wanted - received.length);
      });
      receiver.on('receiver_close', () => {
        clearTimeout(timer);
        reject(new NativeOperationError(`browse of ${sourceAddress(request)}: the broker closed the link`));
      });
      receiver.drain = true;
      receiver.add_credit(wanted);
    });

    const page = received.slice(request.offset, window);
    return {
      channel: 'native',
      offset: request.offset,
      limit: request.limit,
      messages: page.map((message, index) => ({ ...message, position: request.offset + index })),
      hasMore: received.length > window,
    };
  });
}
