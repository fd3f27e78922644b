// The per-process subscriber registry of the stream. Each subscriber has a bounded queue: change signals of one
// topic coalesce into one entry, event messages queue in order; when the client does not read and the queue hits
// its bound, the subscriber is closed with a reconnect instruction (it resumes with Last-Event-ID).
import type { StreamSignal } from './signal.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('stream');

export interface StreamLimits {
  /** Queued messages per subscriber before it counts as fallen behind. */
  readonly maxQueuedMessages: number;
  readonly maxQueuedBytes: number;
  /** Reconnect delay the client is told to wait after being closed for falling behind. */
  readonly reconnectDelayMs: number;
}

const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxQueuedMessages: 256,
  maxQueuedBytes: 512 * 1024,
  reconnectDelayMs: 1_000,
};

/** An event-topic message (e.g. a BrokerEvent) that must not be coalesced; `id` is its replay position. */
export interface StreamEvent {
  readonly topic: string;
  readonly clusterId: string;
  readonly id: string;
  readonly data: unknown;
}

/** The writable end of one SSE response; `desiredSize <= 0` means the client is not keeping up. */
export interface StreamSink {
  readonly desiredSize: number | null;
  write(chunk: string): void;
  close(): void;
}

interface QueuedMessage {
  readonly coalesceKey: string | undefined;
  readonly text: string;
}

function formatSignal(signal: StreamSignal): string {
  return `event: ${signal.topic}\ndata: ${JSON.stringify(signal)}\n\n`;
}

function formatEvent(event: StreamEvent): string {
  // No id line for a notice without a replay position: an empty id would reset the client's Last-Event-ID.
  const id = event.id ? `id: ${event.id}\n` : '';
  return `${id}event: ${event.topic}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

export class StreamSubscriber {
  private readonly queue: QueuedMessage[] = [];
  private queuedBytes = 0;
  private closed = false;

  constructor(
    readonly clusterId: string,
    readonly topics: ReadonlySet<string>,
    private readonly sink: StreamSink,
    private readonly limits: StreamLimits,
    private readonly onClose: (subscriber: StreamSubscriber) => void,
    /** The user holding the stream, counted against `stream.max-per-user`. */
    readonly ownerId: string | null = null,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  get queuedCount(): number {
    return this.queue.length;
  }

  wants(topic: string, clusterId: string): boolean {
    return !this.closed && clusterId === this.clusterId && this.topics.has(topic);
  }

  offerSignal(signal: StreamSignal): void {
    const text = formatSignal(signal);
    const index = this.queue.findIndex((message) => message.coalesceKey === signal.topic);
    if (index >= 0) {
      const previous = this.queue[index];
      this.queuedBytes += text.length - (previous?.text.length ?? 0);
      this.queue[index] = { coalesceKey: signal.topic, text };
    } else {
      this.enqueue({ coalesceKey: signal.topic, text });
    }
    this.flush();
  }

  offerEvent(event: StreamEvent): void {
    this.enqueue({ coalesceKey: undefined, text: formatEvent(event) });
    this.flush();
  }

  /** Writes directly, ahead of the queue: the opening comment, pings, replayed events. */
  writeNow(text: string): void {
    if (!this.closed) this.sink.write(text);
  }

  private enqueue(message: QueuedMessage): void {
    if (this.closed) return;
    if (
      this.queue.length >= this.limits.maxQueuedMessages ||
      this.queuedBytes + message.text.length > this.limits.maxQueuedBytes
    ) {
      this.closeWithReconnect('fell-behind');
      return;
    }
    this.queue.push(message);
    this.queuedBytes += message.text.length;
  }

  /** Moves queued messages to the response while the client keeps reading. */
  flush(): void {
    while (!this.closed && this.queue.length > 0 && (this.sink.desiredSize ?? 0) > 0) {
      const message = this.queue.shift();
      if (!message) break;
      this.queuedBytes -= message.text.length;
      this.sink.write(message.text);
    }
  }

  closeWithReconnect(reason: string): void {
    if (this.closed) return;
    this.sink.write(
      `retry: ${this.limits.reconnectDelayMs}\nevent: reconnect\ndata: ${JSON.stringify({ reason, retryMs: this.limits.reconnectDelayMs })}\n\n`,
    );
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.queuedBytes = 0;
    try {
      this.sink.close();
    } catch {
      // The client may already be gone; closing twice is harmless.
    }
    this.onClose(this);
  }
}

/**
 * A listener in this process to whole topics on every cluster (a runtime plugin's core events): it gets every signal
 * and event of a topic it wants, whichever cluster, and is not an SSE client (no queue here: it keeps its own).
 */
export interface TopicObserver {
  /** Asked for each message, so what it wants may change while it observes. */
  wants(topic: string): boolean;
  signal(signal: StreamSignal): void;
  event(event: StreamEvent): void;
}

export class StreamHub {
  private readonly subscribers = new Set<StreamSubscriber>();
  private readonly observers = new Set<TopicObserver>();

  constructor(private readonly limits: StreamLimits = DEFAULT_STREAM_LIMITS) {}

  get size(): number {
    return this.subscribers.size;
  }

  subscribe(
    clusterId: string,
    topics: ReadonlySet<string>,
    sink: StreamSink,
    ownerId: string | null = null,
  ): StreamSubscriber {
    const subscriber = new StreamSubscriber(
      clusterId,
      topics,
      sink,
      this.limits,
      (closed) => this.subscribers.delete(closed),
      ownerId,
    );
    this.subscribers.add(subscriber);
    return subscriber;
  }

  /** How many open streams here the user holds. */
  countOwnedBy(ownerId: string): number {
    let count = 0;
    for (const subscriber of this.subscribers) if (subscriber.ownerId === ownerId) count++;
    return count;
  }

  /** Adds an observer until the returned function is called. */
  observe(observer: TopicObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  deliverSignal(signal: StreamSignal): void {
    for (const subscriber of this.subscribers) {
      if (subscriber.wants(signal.topic, signal.clusterId)) subscriber.offerSignal(signal);
    }
    this.toObservers(signal.topic, (observer) => observer.signal(signal));
  }

  /** Whether anyone here listens to the topic of the cluster (so a source need not read what nobody wants). */
  wants(topic: string, clusterId: string): boolean {
    for (const subscriber of this.subscribers) if (subscriber.wants(topic, clusterId)) return true;
    for (const observer of this.observers) if (observer.wants(topic)) return true;
    return false;
  }

  deliverEvent(event: StreamEvent): void {
    for (const subscriber of this.subscribers) {
      if (subscriber.wants(event.topic, event.clusterId)) subscriber.offerEvent(event);
    }
    this.toObservers(event.topic, (observer) => observer.event(event));
  }

  /** An observer that throws is its own problem: the SSE clients and the other observers still get theirs. */
  private toObservers(topic: string, deliver: (observer: TopicObserver) => void): void {
    for (const observer of this.observers) {
      try {
        if (observer.wants(topic)) deliver(observer);
      } catch (error) {
        log.error({ err: error, topic }, 'a topic observer failed');
      }
    }
  }

  /** Shutdown: the stream closes first, telling every client to come back (to this or another instance). */
  closeAll(): void {
    for (const subscriber of [...this.subscribers]) subscriber.closeWithReconnect('shutdown');
  }
}
